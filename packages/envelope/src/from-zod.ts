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

/** Runs `read`; a throwing getter or proxy trap in what it reads gives `fallback` instead. */
function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

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
 * "received undefined" wording decides. Unreadable arguments count as present: the model is then
 * told what is wrong instead of the user being asked.
 */
function isMissing(issue: ZodLikeIssue, context: ZodMappingContext, hasInput: boolean): boolean {
  if (hasInput) return safely(() => valueAtPath(context.input, issue.path), undefined) === absent;
  if ('input' in issue) return issue.input === undefined;
  return issue.code === 'invalid_type' && /received undefined/i.test(issue.message);
}

function isPropertyKey(value: unknown): value is PropertyKey {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'symbol';
}

/**
 * One issue as the mapping reads it, copied out of whatever the error holds: a path of property
 * keys (else the whole input), a string message (else a generic one). Nothing read later can throw.
 */
function readIssue(raw: unknown): ZodLikeIssue {
  const unknownIssue: ZodLikeIssue = { path: [], message: 'Invalid value' };
  if (raw === null || typeof raw !== 'object') return unknownIssue;
  return safely(() => {
    const { code, path, message } = raw as Record<string, unknown>;
    const keys = Array.isArray(path) ? Array.from(path as unknown[]) : [];
    const issue: ZodLikeIssue = {
      path: keys.every(isPropertyKey) ? keys : [],
      message: typeof message === 'string' ? message : unknownIssue.message,
    };
    if (typeof code === 'string') issue.code = code;
    if ('input' in raw) issue.input = (raw as { input?: unknown }).input;
    return issue;
  }, unknownIssue);
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
  // A list that cannot be read still says the arguments were invalid.
  const rawIssues = safely(() => Array.from(error.issues as unknown[]), []);
  for (const issue of rawIssues.map(readIssue)) {
    const { path, message } = issue;
    const text = pathText(path) || '(input)';
    if (path.length > 0 && isMissing(issue, context, hasInput)) {
      const top = String(path[0]);
      const given = path.length === 1 ? safely(() => context.questions?.[top], undefined) : undefined;
      const question =
        typeof given === 'string'
          ? given
          : `What should I use for ${(context.redact?.(text) ?? text).replaceAll('_', ' ').replaceAll('.', ' ')}?`;
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
