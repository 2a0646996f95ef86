import type { ResumeLedger } from '@patchbay/connector/ports';

/** The port a chain claims its pauses in (defined with the other ports in `@patchbay/connector/ports`). */
export type { ResumeLedger };

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
