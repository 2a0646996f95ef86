import type { ResumeLedger } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, together, useHarness } from './contract-harness.js';

/** A {@link ResumeLedger} under test. */
export interface ResumeLedgerHarness extends HarnessLifecycle {
  /** The implementation under test, empty. */
  ledger: ResumeLedger;
  /**
   * Another handle on the same data, as a second process would open it. Without it the test that
   * needs one is reported as skipped. `close` closes it too.
   */
  reopen?: () => Awaitable<ResumeLedger>;
}

const racers = 12;

/**
 * Registers the contract every {@link ResumeLedger} meets: the first claim of a pause id wins and
 * every later one loses, of concurrent claims of one id exactly one wins (also across handles), ids
 * never share a claim, and the longest id the port allows (100 characters) is kept whole.
 * `setup` runs before each test (a fresh, empty ledger) and the harness's `close` after it.
 */
export function describeResumeLedgerContract(
  name: string,
  setup: () => Awaitable<ResumeLedgerHarness>,
): void {
  describe(`ResumeLedger contract: ${name}`, () => {
    const harness = useHarness(setup);

    it('lets the first claim of a pause win and every later one lose', async () => {
      const { ledger } = harness();
      expect(await ledger.claim('pause-1')).toBe(true);
      expect(await ledger.claim('pause-1')).toBe(false);
      expect(await ledger.claim('pause-1')).toBe(false);
    });

    it('keeps pauses apart: a claim of one leaves every other unclaimed', async () => {
      const { ledger } = harness();
      expect(await ledger.claim('pause-a')).toBe(true);
      expect(await ledger.claim('pause-b')).toBe(true);
      expect(await ledger.claim('PAUSE-A')).toBe(true);
    });

    it('keeps the longest id whole: two that differ only in the last character are two pauses', async () => {
      const { ledger } = harness();
      const stem = 'p'.repeat(99);
      expect(await ledger.claim(`${stem}1`)).toBe(true);
      expect(await ledger.claim(`${stem}2`)).toBe(true);
      expect(await ledger.claim(`${stem}1`)).toBe(false);
    });

    it(`of ${racers} concurrent claims of one pause, exactly one wins`, async () => {
      const { ledger } = harness();
      const won = await together(racers, () => ledger.claim('pause-raced'));
      expect(won.filter((result) => result === true)).toHaveLength(1);
    });

    it('counts a claim made through another handle, and races across handles have one winner', async (context) => {
      const { ledger, reopen } = harness();
      if (!reopen) return context.skip();
      const other = await reopen();
      expect(await ledger.claim('pause-shared')).toBe(true);
      expect(await other.claim('pause-shared')).toBe(false);
      const won = await together(racers, (index) => (index % 2 === 0 ? ledger : other).claim('pause-raced'));
      expect(won.filter((result) => result === true)).toHaveLength(1);
    });
  });
}
