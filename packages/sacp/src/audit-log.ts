import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactString } from '@patchbay/envelope';
import type { SacpIssue } from './issues.js';
import type { SacpRepair } from './parse-sacp.js';
import type { SacpReply, SacpStatus } from './reply.js';

/** One audited reply, as written to the log (snake_case: other processes read it). */
export interface SacpAuditRecord {
  timestamp: string;
  correlation_id: string;
  chain_id?: string | undefined;
  node: string;
  step: number;
  status: SacpStatus;
  /** False when the reply is a fallback or failed its data schema. */
  ok: boolean;
  repairs: SacpRepair[];
  reasks: number;
  /** Guardrails that changed the reply. */
  guardrails: string[];
  /** The reasoning, kept for review (secrets redacted). */
  thought: string;
  /** The user-facing message (secrets redacted). */
  message: string;
  /** Keys of `data`; the values stay out of the log to keep it small and free of payloads. */
  data_keys: string[];
  issues?: SacpIssue[] | undefined;
}

/** Where audit records go; `@patchbay/store` can implement it. */
export interface SacpAuditSink {
  write(record: SacpAuditRecord): void | Promise<void>;
}

/** Builds an audit record for a reply; strings are passed through `redactString`. */
export function toAuditRecord(input: {
  reply: SacpReply;
  correlationId: string;
  chainId?: string | undefined;
  node: string;
  step: number;
  ok: boolean;
  repairs: SacpRepair[];
  reasks: number;
  guardrails: string[];
  issues?: SacpIssue[] | undefined;
  now?: Date;
}): SacpAuditRecord {
  return {
    timestamp: (input.now ?? new Date()).toISOString(),
    correlation_id: input.correlationId,
    ...(input.chainId ? { chain_id: input.chainId } : {}),
    node: input.node,
    step: input.step,
    status: input.reply.status,
    ok: input.ok,
    repairs: input.repairs,
    reasks: input.reasks,
    guardrails: input.guardrails,
    thought: redactString(input.reply.thought),
    message: redactString(input.reply.message),
    data_keys: Object.keys(input.reply.data).sort(),
    ...(input.issues && input.issues.length > 0 ? { issues: input.issues } : {}),
  };
}

/**
 * A JSON Lines audit log file; `flush()` waits for pending writes. Besides chain reply records it
 * takes an application's own entries through `append`, which makes it an `AuditSink` of
 * `@patchbay/connector` (typed structurally here, so sacp needs no dependency on that package).
 */
export interface JsonlAuditLog extends SacpAuditSink {
  readonly path: string;
  /** Appends one entry (any JSON object, no secrets); `at` (ISO time) is filled in when missing. */
  append(entry: { at?: string } & Record<string, unknown>): Promise<void>;
  flush(): Promise<void>;
}

/** Appends each record as one JSON line to `path` (directories are created). Writes keep their order. */
export function createJsonlAuditLog(path: string): JsonlAuditLog {
  let queue: Promise<void> = mkdir(dirname(path), { recursive: true }).then(() => undefined);
  // Serialised at the call, so the line holds the value as given even if the caller changes it later.
  const enqueue = (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    // A failed write must not block the records after it.
    queue = queue.catch(() => undefined).then(() => appendFile(path, line, 'utf8'));
    return queue;
  };
  return {
    path,
    write: enqueue,
    append(entry) {
      return enqueue({ ...entry, at: typeof entry.at === 'string' ? entry.at : new Date().toISOString() });
    },
    flush() {
      return queue;
    },
  };
}

/** An in-memory audit sink, for tests and short-lived processes. */
export interface MemoryAuditLog extends SacpAuditSink {
  readonly records: SacpAuditRecord[];
}

/** Creates an audit sink that keeps records in an array. */
export function createMemoryAuditLog(): MemoryAuditLog {
  const records: SacpAuditRecord[] = [];
  return {
    records,
    write(record) {
      records.push(record);
    },
  };
}
