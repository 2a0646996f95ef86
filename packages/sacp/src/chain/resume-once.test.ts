import { PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { type ChainCheckpoint, type ChainRunResult, defineChain } from '../chain.js';
import type { SacpReply } from '../reply.js';
import { createMemoryResumeLedger, type ResumeLedger } from '../resume-ledger.js';

const reply = (status: SacpReply['status'], message = ''): SacpReply => ({
  thought: '',
  status,
  data: {},
  message,
});

const key = 'k'.repeat(32);

/**
 * A "service" that counts the writes reaching it, and a chain whose node after the pause writes to
 * it: `ask` pauses until it has an answer ("later" pauses again), then `write` sends one write.
 */
function writingChain(options: { resumeLedger?: ResumeLedger; resumeKey?: string } = {}) {
  const service = { writes: 0 };
  const chain = defineChain({
    id: 'refund',
    start: 'ask',
    nodes: {
      ask: (_input, { answer }) =>
        answer === undefined || answer === 'later'
          ? reply('clarification_needed', 'Refund the order?')
          : reply('success', String(answer)),
      write: () => {
        service.writes += 1;
        return reply('completed', 'Refunded.');
      },
    },
    edges: [{ from: 'ask', to: 'write', status: 'success' }],
    ...options,
  });
  return { chain, service };
}

function pausedOf(result: ChainRunResult) {
  if (result.state !== 'paused') throw new Error(`expected a pause, got ${result.state}`);
  return result;
}

const used = { code: 'sacp_resume_used' };

describe('defineChain: a paused run resumes at most once', () => {
  it('refuses a second resume of the same token, or of the same pause as a checkpoint object, and runs nothing', async () => {
    const { chain, service } = writingChain();
    const paused = pausedOf(await chain.run('Order 42'));

    expect((await chain.resume(paused.resumeToken, 'yes')).state).toBe('done');
    expect(service.writes).toBe(1);

    await expect(chain.resume(paused.resumeToken, 'yes')).rejects.toMatchObject(used);
    await expect(chain.resume(paused.checkpoint, 'yes')).rejects.toMatchObject(used);
    const refusal = await chain.resume(paused.resumeToken, 'yes').catch((error: unknown) => error);
    expect(PatchbayError.isInstance(refusal)).toBe(true);
    expect((refusal as Error).message).toContain('already resumed');
    expect(service.writes).toBe(1);
  });

  it('runs exactly one of several concurrent resumes of one pause (double click, replayed request)', async () => {
    const { chain, service } = writingChain();
    const paused = pausedOf(await chain.run('Order 42'));

    const outcomes = await Promise.allSettled([
      chain.resume(paused.resumeToken, 'yes'),
      chain.resume(paused.resumeToken, 'yes'),
      chain.resume(paused.checkpoint, 'yes'),
      chain.resume(paused.resumeToken, 'yes'),
    ]);

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(rejected.map((outcome) => (outcome.reason as PatchbayError).code)).toEqual([
      'sacp_resume_used',
      'sacp_resume_used',
      'sacp_resume_used',
    ]);
    expect(service.writes).toBe(1);
  });

  it('holds across chain objects (processes) that share a ledger: one resume runs, the rest are refused', async () => {
    // A ledger as a shared store offers it: an atomic insert-if-absent, answered after a round trip.
    const rows = new Set<string>();
    const claims: string[] = [];
    const shared: ResumeLedger = {
      async claim(pauseId) {
        claims.push(pauseId);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (rows.has(pauseId)) return false;
        rows.add(pauseId);
        return true;
      },
    };
    const first = writingChain({ resumeKey: key, resumeLedger: shared });
    const second = writingChain({ resumeKey: key, resumeLedger: shared });
    const paused = pausedOf(await first.chain.run('Order 42'));

    const outcomes = await Promise.allSettled([
      first.chain.resume(paused.resumeToken, 'yes'),
      second.chain.resume(paused.resumeToken, 'yes'),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(first.service.writes + second.service.writes).toBe(1);
    // Both claimed the same pause, by the id its checkpoint carries.
    expect(claims).toEqual([paused.checkpoint.pauseId, paused.checkpoint.pauseId]);
  });

  it('claims before any node runs: a ledger that fails or answers anything but true refuses the resume', async () => {
    for (const ledger of [
      { claim: async () => Promise.reject(new Error('store down')) },
      { claim: async () => undefined as unknown as boolean },
      { claim: async () => 'yes' as unknown as boolean },
      { claim: async () => false },
    ] satisfies ResumeLedger[]) {
      let asked = 0;
      const chain = defineChain({
        start: 'ask',
        resumeLedger: ledger,
        nodes: {
          ask: (_input, { answer }) => {
            if (answer !== undefined) asked += 1;
            return answer === undefined ? reply('clarification_needed', 'Which?') : reply('completed');
          },
        },
      });
      const paused = pausedOf(await chain.run('x'));
      await expect(chain.resume(paused.resumeToken, 'this')).rejects.toThrow();
      expect(asked).toBe(0);
    }
  });

  it('gives each pause of a run its own id: a run that pauses again resumes again, its old token does not', async () => {
    const { chain, service } = writingChain();
    const first = pausedOf(await chain.run('Order 42'));
    const second = pausedOf(await chain.resume(first.resumeToken, 'later'));
    expect(second.checkpoint.pauseId).not.toBe(first.checkpoint.pauseId);

    await expect(chain.resume(first.resumeToken, 'yes')).rejects.toMatchObject(used);
    expect((await chain.resume(second.resumeToken, 'yes')).state).toBe('done');
    await expect(chain.resume(second.resumeToken, 'yes')).rejects.toMatchObject(used);
    expect(service.writes).toBe(1);
  });

  it('claims a checkpoint made before pauses had ids by its content', async () => {
    const { chain, service } = writingChain();
    const { pauseId: _pauseId, ...older } = pausedOf(await chain.run('Order 42')).checkpoint;
    const checkpoint = older as ChainCheckpoint;

    expect((await chain.resume(checkpoint, 'yes')).state).toBe('done');
    await expect(chain.resume(structuredClone(checkpoint), 'yes')).rejects.toMatchObject(used);
    expect(service.writes).toBe(1);
  });

  it('leaves the pause resumable when the resume was aborted before it started', async () => {
    const { chain, service } = writingChain();
    const paused = pausedOf(await chain.run('Order 42'));
    const aborted = await chain.resume(paused.resumeToken, 'yes', { signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ state: 'failed', error: { code: 'sacp_aborted' } });

    expect((await chain.resume(paused.resumeToken, 'yes')).state).toBe('done');
    expect(service.writes).toBe(1);
  });

  it('shares one in-memory ledger between chain objects of a process, and keeps each default ledger to its chain', async () => {
    const ledger = createMemoryResumeLedger();
    const first = writingChain({ resumeKey: key, resumeLedger: ledger });
    const again = writingChain({ resumeKey: key, resumeLedger: ledger });
    const paused = pausedOf(await first.chain.run('Order 42'));
    await first.chain.resume(paused.resumeToken, 'yes');
    await expect(again.chain.resume(paused.resumeToken, 'yes')).rejects.toMatchObject(used);

    // Without a shared ledger another chain object does not know the first one's claims: this is
    // why a chain defined per request, or in several processes, needs `resumeLedger`.
    const unshared = writingChain({ resumeKey: key });
    expect((await unshared.chain.resume(paused.resumeToken, 'yes')).state).toBe('done');
  });

  it('refuses a resumeLedger without a claim method when the chain is defined', () => {
    expect(() =>
      defineChain({
        start: 'a',
        nodes: { a: () => reply('completed') },
        resumeLedger: {} as ResumeLedger,
      }),
    ).toThrow(
      expect.objectContaining({ code: 'sacp_invalid_chain', message: expect.stringContaining('claim') }),
    );
  });
});
