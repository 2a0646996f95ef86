/** An audit entry: any JSON object; `at` (ISO time) is filled in when missing. Must hold no secrets. */
export type AuditEntry = { at?: string } & Record<string, unknown>;

/**
 * Where audit entries go: append only. `@patchbay/store` implements it on SQLite and
 * `@patchbay/sacp`'s `createJsonlAuditLog` on a JSON Lines file. (The reply records of sacp chains
 * go to its own `SacpAuditSink`, which both of those logs also meet.)
 */
export interface AuditSink {
  /** Appends one entry after every entry appended before it. */
  append(entry: AuditEntry): Promise<void>;
}
