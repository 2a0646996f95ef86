import type { Checkpointer } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, useHarness } from './contract-harness.js';

/** A {@link Checkpointer} under test. */
export interface CheckpointerHarness extends HarnessLifecycle {
  /** The implementation under test, empty. */
  checkpointer: Checkpointer;
  /**
   * Another handle on the same data, as a second process would open it. Without it the tests
   * that need one are reported as skipped. `close` closes it too.
   */
  reopen?: () => Awaitable<Checkpointer>;
}

/** A paused SACP chain's state, the kind of value a checkpoint holds. */
const pausedChain = {
  chainId: 'triage',
  node: 'report',
  step: 3,
  waitingFor: 'clarification',
  memory: { project: 'WEB', issues: [{ key: 'WEB-7', severity: 'high' }], note: 'Ünïcødé "quoted"' },
  done: false,
  retries: null,
};

/**
 * Registers the contract every {@link Checkpointer} meets: a JSON value saved under a thread id
 * loads back equal, the last save wins, delete forgets it, and threads never share a checkpoint.
 * `setup` runs before each test (a fresh, empty checkpointer) and the harness's `close` after it.
 */
export function describeCheckpointerContract(
  name: string,
  setup: () => Awaitable<CheckpointerHarness>,
): void {
  describe(`Checkpointer contract: ${name}`, () => {
    const harness = useHarness(setup);

    it('answers undefined for a thread with no checkpoint', async () => {
      expect(await harness().checkpointer.loadCheckpoint('thread-unknown')).toBeUndefined();
    });

    it('loads back an equal value of every JSON kind', async () => {
      const { checkpointer } = harness();
      const values: [string, unknown][] = [
        ['object', pausedChain],
        ['array', [1, 'two', { three: [3] }]],
        ['string', 'waiting for approval'],
        ['number', 42.5],
        ['boolean', false],
        ['null', null],
      ];
      for (const [threadId, value] of values) await checkpointer.saveCheckpoint(threadId, value);
      for (const [threadId, value] of values)
        expect(await checkpointer.loadCheckpoint(threadId)).toEqual(value);
    });

    it('replaces a thread’s checkpoint with the last one saved', async () => {
      const { checkpointer } = harness();
      await checkpointer.saveCheckpoint('t1', pausedChain);
      await checkpointer.saveCheckpoint('t1', { step: 4 });
      expect(await checkpointer.loadCheckpoint('t1')).toEqual({ step: 4 });
    });

    it('deletes a checkpoint, and deleting one that is not there is no error', async () => {
      const { checkpointer } = harness();
      await checkpointer.saveCheckpoint('t1', pausedChain);
      await checkpointer.deleteCheckpoint('t1');
      expect(await checkpointer.loadCheckpoint('t1')).toBeUndefined();
      await expect(checkpointer.deleteCheckpoint('t1')).resolves.toBeUndefined();
      await checkpointer.saveCheckpoint('t1', { step: 1 });
      expect(await checkpointer.loadCheckpoint('t1')).toEqual({ step: 1 });
    });

    it('keeps each thread’s checkpoint to that thread', async () => {
      const { checkpointer } = harness();
      await checkpointer.saveCheckpoint('t1', { owner: 't1' });
      await checkpointer.saveCheckpoint('t2', { owner: 't2' });
      await checkpointer.saveCheckpoint('t1', { owner: 't1', step: 2 });
      expect(await checkpointer.loadCheckpoint('t2')).toEqual({ owner: 't2' });
      await checkpointer.deleteCheckpoint('t2');
      expect(await checkpointer.loadCheckpoint('t1')).toEqual({ owner: 't1', step: 2 });
      expect(await checkpointer.loadCheckpoint('t3')).toBeUndefined();
    });

    it('hands out copies, so changing a saved or a loaded value changes nothing stored', async () => {
      const { checkpointer } = harness();
      const saved = structuredClone(pausedChain);
      await checkpointer.saveCheckpoint('t1', saved);
      saved.memory.issues.push({ key: 'WEB-8', severity: 'low' });
      const loaded = await checkpointer.loadCheckpoint<typeof pausedChain>('t1');
      loaded!.step = 99;
      expect(await checkpointer.loadCheckpoint('t1')).toEqual(pausedChain);
    });

    it('shows a checkpoint saved through one handle to another on the same data', async (context) => {
      const { checkpointer, reopen } = harness();
      if (!reopen) return context.skip('the implementation offers no second handle');
      const other = await reopen();
      await checkpointer.saveCheckpoint('t1', pausedChain);
      expect(await other.loadCheckpoint('t1')).toEqual(pausedChain);
      await other.deleteCheckpoint('t1');
      expect(await checkpointer.loadCheckpoint('t1')).toBeUndefined();
    });
  });
}
