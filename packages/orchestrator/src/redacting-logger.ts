import { createRedactor, REDACTED, type Redactor, redactValue } from '@patchbay/envelope';
import { type Logger, pino } from 'pino';

/** Log paths whose values pino replaces whole, whatever a caller or agent puts there. */
export const redactPaths: readonly string[] = [
  'credentials',
  '*.credentials',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers.cookie',
  '*.headers.cookie',
  'headers["proxy-authorization"]',
  'headers["x-api-key"]',
  'env',
  '*.env',
  'token',
  '*.token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'clientSecret',
  'client_secret',
  'password',
  '*.password',
  'secret',
  '*.secret',
];

/** Credential values to keep out of logs: a list, or a function read again at every log line. */
export type SecretSource = Iterable<string> | (() => Iterable<string>);

/** Settings of {@link createRedactingLogger}. */
export interface RedactingLoggerOptions {
  /** The logger to write through; a silent one when absent. */
  logger?: Logger | undefined;
  /** Fields bound to every line, e.g. `{ component: 'mcp-gateway' }`. */
  bindings?: Record<string, unknown> | undefined;
  /** Values removed wherever they appear, on top of those of a redacting logger given as `logger`. */
  secrets?: SecretSource | undefined;
}

// The secret sources of every logger this module made, so one made from another keeps both sets.
const sourcesOf = new WeakMap<object, readonly SecretSource[]>();

function inheritedSources(logger: Logger): readonly SecretSource[] {
  // A pino child is `Object.create(parent)`: children of a redacting logger find its sources up the chain.
  for (let current: object | null = logger; current !== null; current = Object.getPrototypeOf(current)) {
    const sources = sourcesOf.get(current);
    if (sources) return sources;
  }
  return [];
}

function currentRedactor(sources: readonly SecretSource[]): Redactor {
  const values: string[] = [];
  for (const source of sources) {
    try {
      for (const value of typeof source === 'function' ? source() : source) {
        if (typeof value === 'string') values.push(value);
      }
    } catch {
      // A source that fails yields what it yielded; the token shapes are removed whatever the sources.
    }
  }
  // createRedactor caches by secret set, so an unchanged set costs a lookup per line.
  return createRedactor(values);
}

/** An error as a plain object pino can print: its message and stack redacted, its cause followed. */
function loggableError(error: Error, depth = 0): Record<string, unknown> {
  const plain: Record<string, unknown> = { ...error, type: error.name, message: error.message };
  if (typeof error.stack === 'string') plain.stack = error.stack;
  if (error.cause instanceof Error && depth < 3) plain.cause = loggableError(error.cause, depth + 1);
  return plain;
}

function redactRecord(record: Record<string, unknown>, redact: Redactor): Record<string, unknown> {
  const loggable: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    loggable[key] = value instanceof Error ? loggableError(value) : value;
  }
  return redactValue(loggable, redact);
}

// pino writes a line through this method of the logger (inherited by every child, never reset by a
// level change); it is the one place a message string passes through, so messages are redacted there.
const asJson = pino.symbols.asJsonSym;

/**
 * A logger that removes secrets from everything it writes: values at known secret paths
 * (`authorization`, `credentials`, `token`, `env`, …) are replaced whole; every given secret value
 * (also URL- or base64-encoded) and every common token shape (GitHub, Slack, OpenAI, JWT, `Bearer …`)
 * is cut out of every field, nested values, error messages and stacks, and the message itself.
 * The one logger of the orchestrator, the MCP gateway and its HTTP server; children made with
 * `.child()` redact too.
 */
export function createRedactingLogger(options: RedactingLoggerOptions = {}): Logger {
  const base = options.logger ?? pino({ level: 'silent' });
  const sources = [...inheritedSources(base), ...(options.secrets === undefined ? [] : [options.secrets])];
  const logger = base.child(options.bindings ?? {}, {
    redact: { paths: [...redactPaths], censor: REDACTED },
    formatters: {
      log: (record) => redactRecord(record as Record<string, unknown>, currentRedactor(sources)),
      // Bindings are written once, when the child is made: redacted with the secrets known then.
      bindings: (bindings) => redactRecord(bindings as Record<string, unknown>, currentRedactor(sources)),
    },
  });
  sourcesOf.set(logger, sources);
  const write = (logger as unknown as Record<symbol, unknown>)[asJson];
  if (typeof write === 'function') {
    Object.defineProperty(logger, asJson, {
      value(this: Logger, record: unknown, message: unknown, ...rest: unknown[]) {
        const text = typeof message === 'string' ? currentRedactor(sources)(message) : message;
        return write.call(this, record, text, ...rest);
      },
    });
  }
  return logger;
}
