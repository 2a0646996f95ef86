/**
 * Where a chain records the paused runs it has resumed, so that each paused run resumes at most once.
 * A double-clicked "approve", a replayed HTTP request or a leaked token would otherwise run the rest
 * of the chain, and every write in it, again.
 *
 * One method, so any store with an atomic "insert if absent" backs it: SQLite or Postgres
 * (`INSERT … ON CONFLICT DO NOTHING`, true when a row was inserted), Redis (`SET key 1 NX`), a
 * unique-keyed table. Every process that may resume the chain's runs must share one ledger.
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

/**
 * A ledger in this process's memory. A chain defined without `resumeLedger` has one of its own; create
 * one yourself to share it between chain objects of one process (a chain defined per request or per
 * user). It does not protect runs resumed in another process: give those a ledger on a shared store.
 */
export function createMemoryResumeLedger(): ResumeLedger {
  const claimed = new Set<string>();
  return {
    // Test and insert happen in one synchronous step, so concurrent claims cannot both win.
    async claim(pauseId) {
      if (claimed.has(pauseId)) return false;
      claimed.add(pauseId);
      return true;
    },
  };
}
