/** An audit entry: any JSON object; `at` (ISO time) is filled in when missing. Must hold no secrets. */
export type AuditEntry = { at?: string } & Record<string, unknown>;

/**
 * Where audit entries go: append only. `@patchbay/store` implements it on SQLite. (The reply
 * records of `@patchbay/sacp` chains go to its own `SacpAuditSink`, which the store's log also meets.)
 */
export interface AuditSink {
  /** Appends one entry after every entry appended before it. */
  append(entry: AuditEntry): Promise<void>;
}
