import { failure } from './constructors.js';
import type { ArgumentIssue, ErrorEnvelope, MissingField } from './envelope.js';
import type { Redactor } from './redact.js';

/** The parts of a zod issue the mapping reads (zod 3 and 4 share them). */
export interface ZodLikeIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
}

/** What the zod mapping needs from the caller's context. */
export interface ZodMappingContext {
  connector?: string | undefined;
  questions?: Readonly<Record<string, string>> | undefined;
  input?: unknown;
  /** Applied to a field path before it is reworded into a question, which would hide a secret from later redaction. */
  redact?: Redactor | undefined;
}

/** True for a zod validation error (classic `ZodError` or core `$ZodError`). */
export function isZodError(value: unknown): value is { issues: ZodLikeIssue[] } {
  if (typeof value !== 'object' || value === null) return false;
  const { name, issues } = value as { name?: unknown; issues?: unknown };
  return (name === 'ZodError' || name === '$ZodError') && Array.isArray(issues);
}

const absent = Symbol('absent');

function valueAtPath(root: unknown, path: PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return absent;
    current = (current as Record<PropertyKey, unknown>)[key];
    if (current === undefined) return absent;
  }
  return current === undefined ? absent : current;
}

/**
 * A field is missing when the arguments have nothing at its path. With the raw arguments at hand
 * that is looked up; without them the issue's reported input (zod's `reportInput`) or its
 * "received undefined" wording decides.
 */
function isMissing(issue: ZodLikeIssue, context: ZodMappingContext, hasInput: boolean): boolean {
  if (hasInput) return valueAtPath(context.input, issue.path) === absent;
  if ('input' in issue) return issue.input === undefined;
  return issue.code === 'invalid_type' && /received undefined/i.test(issue.message);
}

function pathText(path: PropertyKey[]): string {
  return path.map((key) => (typeof key === 'symbol' ? (key.description ?? 'symbol') : String(key))).join('.');
}

/**
 * Maps zod issues to an envelope: fields that are absent become `needs_input` with one plain
 * question each; anything else is `invalid_arguments`, which also lists absent fields, because
 * the model should fix its own mistakes before anyone asks the user.
 */
export function fromZod(
  error: { issues: ZodLikeIssue[] },
  context: ZodMappingContext,
  hasInput: boolean,
): ErrorEnvelope {
  const missing: MissingField[] = [];
  const issues: ArgumentIssue[] = [];
  for (const issue of error.issues) {
    const path = Array.isArray(issue.path) ? issue.path : [];
    const text = pathText(path) || '(input)';
    const message = typeof issue.message === 'string' ? issue.message : 'Invalid value';
    if (path.length > 0 && isMissing({ ...issue, path }, context, hasInput)) {
      const top = String(path[0]);
      const question =
        (path.length === 1 ? context.questions?.[top] : undefined) ??
        `What should I use for ${(context.redact?.(text) ?? text).replaceAll('_', ' ').replaceAll('.', ' ')}?`;
      if (!missing.some((field) => field.field === text)) missing.push({ field: text, question });
    } else {
      issues.push({ path: text, message });
    }
  }
  if (issues.length > 0 || missing.length === 0) {
    return failure('invalid_arguments', {
      connector: context.connector,
      issues,
      missing,
      userMessage: issues.length
        ? `Invalid arguments: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`
        : undefined,
    });
  }
  return failure('needs_input', {
    connector: context.connector,
    missing,
    userMessage: missing.map((field) => field.question).join(' '),
  });
}
