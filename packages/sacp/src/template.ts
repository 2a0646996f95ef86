import { PatchbayError } from '@patchbay/envelope';
import { replyForNextNode, type SacpReply } from './reply.js';

/**
 * A node's input: a string with `{{input}}`, `{{answer}}`, `{{node.message}}`, `{{node.data.key}}`
 * placeholders, or an object/array whose strings are templates. A string that is exactly one
 * placeholder yields the value itself (objects stay objects); embedded values are JSON-encoded.
 */
export type InputTemplate =
  | string
  | number
  | boolean
  | null
  | InputTemplate[]
  | { [key: string]: InputTemplate };

/** What templates can reach: the run input, the user's answer after a pause, and earlier node replies. */
export interface TemplateScope {
  input: unknown;
  answer?: unknown;
  outputs: Readonly<Record<string, SacpReply>>;
}

const placeholderPattern = /\{\{\s*([^{}]*?)\s*\}\}/g;
const wholePlaceholder = /^\{\{\s*([^{}]*?)\s*\}\}$/;

/** Renders a node input template. Throws `sacp_missing_template_path` naming the node and the path when a value is missing. */
export function renderTemplate(template: InputTemplate, scope: TemplateScope, nodeId: string): unknown {
  if (typeof template === 'string') return renderString(template, scope, nodeId);
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, scope, nodeId));
  if (template !== null && typeof template === 'object') {
    const rendered: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) rendered[key] = renderTemplate(value, scope, nodeId);
    return rendered;
  }
  return template;
}

function renderString(template: string, scope: TemplateScope, nodeId: string): unknown {
  const whole = wholePlaceholder.exec(template);
  if (whole) return resolvePath(whole[1] ?? '', scope, nodeId);
  return template.replace(placeholderPattern, (_match, path: string) => {
    const value = resolvePath(path, scope, nodeId);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** Splits `a.data.items[0].name` into segments. */
export function splitPath(path: string): string[] {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .map((segment) => segment.trim())
    .filter((segment) => segment.length > 0);
}

/** Resolves a template path against the scope; throws a `sacp_missing_template_path` error when it is absent. */
export function resolvePath(path: string, scope: TemplateScope, nodeId: string): unknown {
  const segments = splitPath(path);
  const [root, ...rest] = segments;
  const missing = (detail: string) =>
    new PatchbayError(
      'sacp_missing_template_path',
      `Node "${nodeId}": input template path "${path}" is missing (${detail}).`,
    );
  if (!root) throw missing('empty path');
  let current: unknown;
  if (root === 'input') current = scope.input;
  else if (root === 'answer') {
    if (scope.answer === undefined)
      throw missing('there is no user answer yet; {{answer}} exists only after resume');
    current = scope.answer;
  } else {
    const reply = Object.hasOwn(scope.outputs, root) ? scope.outputs[root] : undefined;
    if (!reply) throw missing(`node "${root}" has not run yet in this run`);
    // Seed 004: `thought` is for people and the audit, ignored by the next agent. A whole reply
    // (`{{node}}`, the default input of a later node) goes on without it; only a template that names
    // `{{node.thought}}` passes it, as its author's explicit choice.
    current = rest.length === 0 ? replyForNextNode(reply) : reply;
  }
  const walked: string[] = [root];
  for (const segment of rest) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) {
      throw missing(`"${walked.join('.')}" has no key "${segment}"`);
    }
    current = (current as Record<string, unknown>)[segment];
    walked.push(segment);
  }
  if (current === undefined) throw missing(`"${walked.join('.')}" is undefined`);
  return current;
}
