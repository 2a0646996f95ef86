import { describe, expect, it } from 'vitest';
import { type ChainCheckpoint, defineChain } from '../chain.js';
import type { SacpReply } from '../reply.js';

const reply = (status: SacpReply['status'], message = ''): SacpReply => ({
  thought: '',
  status,
  data: {},
  message,
});

function askingChain(id?: string) {
  return defineChain({
    id,
    nodes: {
      ask: (_input, { answer }) =>
        answer === undefined ? reply('clarification_needed', 'Which?') : reply('completed', String(answer)),
    },
    start: 'ask',
  });
}

async function pausedCheckpoint(id?: string): Promise<ChainCheckpoint> {
  const paused = await askingChain(id).run('x', { correlationId: 'first' });
  if (paused.state !== 'paused') throw new Error(`expected a pause, got ${paused.state}`);
  return paused.checkpoint;
}

describe('defineChain: resuming a checkpoint object', () => {
  it('refuses one of another version, for a node the chain does not have, or without the paused reply', async () => {
    const checkpoint = await pausedCheckpoint('c');
    const chain = askingChain('c');
    const broken: ChainCheckpoint[] = [
      { ...checkpoint, version: 2 as 1 },
      { ...checkpoint, node: 'elsewhere' },
      { ...checkpoint, outputs: {} },
    ];
    const messages = [
      'The checkpoint does not belong to this chain.',
      'The checkpoint does not belong to this chain.',
      'The checkpoint has no reply for its paused node.',
    ];
    for (const [index, candidate] of broken.entries()) {
      await expect(chain.resume(candidate, 'yes')).rejects.toMatchObject({
        code: 'sacp_invalid_checkpoint',
        message: messages[index],
      });
    }
    expect((await chain.resume(checkpoint, 'yes')).state).toBe('done');
  });

  it('names both chains when the checkpoint belongs to another, unnamed ones included', async () => {
    await expect(askingChain('b').resume(await pausedCheckpoint('a'), 'yes')).rejects.toMatchObject({
      message: 'The checkpoint belongs to chain "a", not "b".',
    });
    await expect(askingChain('b').resume(await pausedCheckpoint(), 'yes')).rejects.toMatchObject({
      message: 'The checkpoint belongs to chain "(unnamed)", not "b".',
    });
  });

  it("keeps the paused run's correlation id unless the resume names another, and leaves the checkpoint as it was", async () => {
    const checkpoint = await pausedCheckpoint('c');
    const copy = structuredClone(checkpoint);
    expect((await askingChain('c').resume(checkpoint, 'yes')).correlationId).toBe('first');
    const renamed = await askingChain('c').resume(checkpoint, 'yes', { correlationId: 'second' });
    expect(renamed.correlationId).toBe('second');
    expect(renamed.trace.map((entry) => entry.resumed ?? false)).toEqual([false, true]);
    expect(checkpoint).toEqual(copy);
  });
});
