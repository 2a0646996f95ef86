/**
 * Where resumed pauses are recorded, so that each paused run (a SACP chain's) resumes at most once:
 * a double-clicked "approve", a replayed request or a leaked token would otherwise run the rest of
 * the run, and every write in it, again.
 *
 * One method, so any store with an atomic "insert if absent" backs it: SQLite or Postgres
 * (`INSERT … ON CONFLICT DO NOTHING`, true when a row was inserted), Redis (`SET key 1 NX`), a
 * unique-keyed table. Every process that may resume the same runs must share one ledger.
 */
export interface ResumeLedger {
  /**
   * Records `pauseId` (an opaque string of at most 100 characters that names one pause of one run) as
   * resumed. Resolves `true` for the first claim of an id and `false` for every later one, also when
   * the claims race: of any number of concurrent claims of one id, across every process sharing the
   * ledger, exactly one resolves `true`. A claim that rejects refuses the resume (nothing runs).
   */
  claim(pauseId: string): Promise<boolean>;
}
