import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { maxArgumentDepth } from '@patchbay/helpers';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runTurn } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';
import { createInMemoryThreadStore } from './thread-store.js';

const fiveMegabytes = 5 * 1024 * 1024;

const archive = defineConnector({
  id: 'archive',
  name: 'Archive',
  description: 'A document archive used by these tests.',
  auth: { kind: 'bearer' },
  capabilities: ['read documents'],
  wouldEnable: ['Read archived documents from chat'],
  setupUrl: 'https://app.test/settings/archive',
  tools: [
    defineTool({
      name: 'archive_read',
      description: 'Reads one archived document.',
      input: z.object({
        id: z.string().describe('Document id'),
        filter: z.unknown().optional().describe('Filter'),
      }),
      effect: 'read',
      execute: async ({ id }) => success({ id, text: 'x'.repeat(fiveMegabytes) }),
    }),
  ],
  verify: async () => ({ valid: true, scopes: [] }),
});
const connectors = [archive];

async function setup() {
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'archive', { credentials: { token: 'archive-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  return { statusSource, orchestrator, execute: vi.spyOn(orchestrator, 'execute') };
}

/** JSON text of `{"id":"d1","filter":[[[…]]]}` nested `depth` levels, built without recursion. */
function deepInput(depth: number): string {
  return `{"id":"d1","filter":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
}

describe('tool results have a size limit in the prompt and the thread', () => {
  it('puts at most maxResultChars of a 5 MB result into the prompt and the stored thread; the trace keeps it whole', async () => {
    const { statusSource, orchestrator } = await setup();
    const threadStore = createInMemoryThreadStore();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'archive_read', input: { id: 'd1' } }] },
      'The document is very long.',
    ]);
    const result = await runTurn({
      model,
      thread: 'big',
      message: 'Read d1',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      threadStore,
    });
    const second = JSON.stringify(model.calls[1]!.prompt);
    const first = JSON.stringify(model.calls[0]!.prompt);
    // What this result added to the prompt: the limit plus the note and the message framing.
    expect(second.length - first.length).toBeLessThan(21_000);
    expect(second).toContain('[result truncated: 5,242,');
    expect(second).toContain('showing the first 20,000]');
    const stored = (await threadStore.load('big'))!.messages;
    const toolRow = JSON.stringify(stored.find((message) => message.role === 'tool'));
    expect(toolRow.length).toBeLessThan(21_000);
    expect(Math.max(...stored.map((message) => JSON.stringify(message).length))).toBeLessThan(21_000);
    // The application still has the whole result.
    const envelope = result.trace.calls[0]!.envelope;
    expect(envelope.ok && (envelope.data as { text: string }).text.length).toBe(fiveMegabytes);
  });

  it('keeps results within the limit as JSON, and takes a lower limit', async () => {
    const { statusSource, orchestrator } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'archive_read', input: { id: 'd1' } }] },
      'Done.',
    ]);
    await runTurn({
      model,
      thread: 'small',
      message: 'Read d1',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      maxResultChars: 1_000,
    });
    const toolMessage = model.calls[1]!.prompt.at(-1)!;
    expect(JSON.stringify(toolMessage)).toContain('showing the first 1,000]');
    expect(JSON.stringify(toolMessage).length).toBeLessThan(1_400);
  });
});

describe('arguments nested too deeply', () => {
  it('are answered with invalid_arguments, never sent, and the turn and its thread survive', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: maxArgumentDepth + 1, max: 10_000 }), async (depth) => {
        execute.mockClear();
        const threadStore = createInMemoryThreadStore();
        const model = createScriptedModel([
          { toolCalls: [{ toolName: 'archive_read', input: deepInput(depth) }] },
          'I could not read it.',
        ]);
        const result = await runTurn({
          model,
          thread: `deep-${depth}`,
          message: 'Read d1',
          subject: 'ana',
          orchestrator,
          connectors,
          statusSource,
          threadStore,
          retry: { maxAttempts: 0 },
        });
        expect(result.trace.calls[0]).toMatchObject({
          skipped: 'too_deep',
          sent: false,
          envelope: {
            error_type: 'invalid_arguments',
            issues: [{ message: expect.stringContaining(`more than ${maxArgumentDepth} levels`) }],
          },
        });
        expect(execute).not.toHaveBeenCalled();
        expect((await threadStore.load(`deep-${depth}`))?.messages.length).toBeGreaterThan(1);
      }),
      { numRuns: 15 },
    );
  });

  it('up to the limit they reach the orchestrator', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'archive_read', input: deepInput(maxArgumentDepth - 1) }] },
      'Read.',
    ]);
    await runTurn({
      model,
      thread: 'ok',
      message: 'Read d1',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
    });
    expect(execute).toHaveBeenCalledTimes(1);
  });
});
