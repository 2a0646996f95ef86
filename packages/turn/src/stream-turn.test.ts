import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import {
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runTurn } from './run-turn.js';
import { approvalsFromUIMessages, lastUserText, streamTurn } from './stream-turn.js';
import { createScriptedModel, type ScriptedStep } from './testing/scripted-model.js';
import { createInMemoryThreadStore } from './thread-store.js';
import type { TurnEvent } from './turn-events.js';

const executed: { tool: string; input: unknown }[] = [];

const tracker = createFixtureConnector({
  id: 'tracker',
  tools: [
    defineTool({
      name: 'tracker_list_issues',
      description: 'Lists the open issues of a project.',
      input: z.object({ project: z.string().describe('Project key') }),
      effect: 'read',
      execute: async (input) => {
        executed.push({ tool: 'tracker_list_issues', input });
        return success([{ key: `${input.project}-7`, title: 'Flaky login' }]);
      },
    }),
    defineTool({
      name: 'tracker_delete_issue',
      description: 'Deletes an issue for good.',
      input: z.object({ key: z.string().describe('Issue key') }),
      effect: 'destructive',
      execute: async (input) => {
        executed.push({ tool: 'tracker_delete_issue', input });
        return success({ deleted: input.key });
      },
    }),
  ],
});
const connectors = [tracker];
const now = () => new Date('2026-11-21T15:00:00Z');

async function setup() {
  executed.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
  statusSource.connect('bob', 'tracker', { credentials: { token: 'tracker-secret-2' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  const threadStore = createInMemoryThreadStore();
  const base = { subject: 'ana', orchestrator, connectors, statusSource, threadStore, now };
  return { statusSource, orchestrator, threadStore, base };
}

async function collect(iterable: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function chunksOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** What the AI SDK's own UI reader (the state `useChat` renders) makes of a stream of chunks. */
async function renderWithAiSdk(chunks: UIMessageChunk[], message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const state of readUIMessageStream({ stream, ...(message ? { message } : {}) })) last = state;
  return last!;
}

const listThenReply: ScriptedStep[] = [
  { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
  'WEB-7 is open: Flaky login.',
];

describe('streamTurn', () => {
  it('streams the reply in deltas and every call as it happens, in order', async () => {
    const { base } = await setup();
    const model = createScriptedModel(listThenReply, { textChunkSize: 4 });
    const turn = streamTurn({ ...base, model, thread: 't1', message: 'What is open in WEB?' });
    const events = await collect(turn);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('turn-start');
    expect(types[1]).toBe('status');
    const deltas = events.filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((event) => (event as { delta: string }).delta).join('')).toBe(
      'WEB-7 is open: Flaky login.',
    );
    // The call and its answer arrive between the first step's start and the second step's text.
    const order = [
      'step-start',
      'tool-call',
      'tool-result',
      'step-finish',
      'step-start',
      'text-start',
      'text-delta',
    ];
    let cursor = 0;
    for (const type of types) if (type === order[cursor]) cursor += 1;
    expect(cursor).toBe(order.length);
    expect(types.at(-1)).toBe('turn-finish');
    expect(executed).toEqual([{ tool: 'tracker_list_issues', input: { project: 'WEB' } }]);
    const result = await turn.result;
    expect(result.reply).toBe('WEB-7 is open: Flaky login.');
    expect(result.trace.outcome).toBe('replied');
  });

  it('gives the same result, trace and stored thread as runTurn for the same script', async () => {
    const streamed = await setup();
    const streamedResult = await streamTurn({
      ...streamed.base,
      model: createScriptedModel(listThenReply),
      thread: 't1',
      message: 'What is open in WEB?',
    }).result;
    const plain = await setup();
    const plainResult = await runTurn({
      ...plain.base,
      model: createScriptedModel(listThenReply),
      thread: 't1',
      message: 'What is open in WEB?',
    });
    const comparable = (result: typeof plainResult) => ({
      reply: result.reply,
      messages: result.thread.messages,
      // Correlation ids are per turn and durations per run: everything else must match.
      calls: result.trace.calls.map(({ correlationId: _id, envelope, ...call }) => ({
        ...call,
        envelope: { ...envelope, meta: undefined },
      })),
      steps: result.trace.steps.map(({ prompt: _prompt, ...step }) => step),
      outcome: result.trace.outcome,
    });
    expect(comparable(streamedResult)).toEqual(comparable(plainResult));
    expect((await streamed.threadStore.load('t1'))?.messages).toEqual(
      (await plain.threadStore.load('t1'))?.messages,
    );
  });

  it('renders through the AI SDK UI reader: text, the tool part with its envelope, the status data part', async () => {
    const { base } = await setup();
    const turn = streamTurn({
      ...base,
      model: createScriptedModel(listThenReply),
      thread: 't1',
      message: 'Open?',
    });
    const chunks = await chunksOf(turn.toUIMessageStream({ messageId: 'm1' }));
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'm1' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    const message = await renderWithAiSdk(chunks);
    const tool = message.parts.find((part) => part.type === 'dynamic-tool');
    expect(tool).toMatchObject({
      toolName: 'tracker_list_issues',
      state: 'output-available',
      output: { ok: true, data: [{ key: 'WEB-7', title: 'Flaky login' }] },
    });
    const status = message.parts.find((part) => part.type === 'data-connector-status') as
      | { data: { connectorStatus: Record<string, { status: string }> } }
      | undefined;
    expect(status?.data.connectorStatus.tracker?.status).toBe('connected');
    expect(
      message.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text),
    ).toEqual(['WEB-7 is open: Flaky login.']);
  });

  it('serves the stream as server-sent events with the UI stream protocol headers', async () => {
    const { base } = await setup();
    const response = streamTurn({
      ...base,
      model: createScriptedModel(['Hello there.']),
      thread: 't1',
      message: 'Hi',
    }).toUIMessageStreamResponse();
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames
      .slice(0, -1)
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')) as UIMessageChunk);
    expect(
      chunks
        .filter((chunk) => chunk.type === 'text-delta')
        .map((chunk) => (chunk as { delta: string }).delta),
    ).toEqual(['Hello there.']);
  });

  it('asks for approval in the UI, runs nothing, and on approval runs the call exactly once', async () => {
    const { base, orchestrator } = await setup();
    const first = streamTurn({
      ...base,
      model: createScriptedModel([
        {
          toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-1' }, toolCallId: 'call-del' }],
        },
        'I asked for your approval to delete WEB-1.',
      ]),
      thread: 't1',
      message: 'Delete WEB-1',
    });
    const chunks = await chunksOf(first.toUIMessageStream({ messageId: 'm1' }));
    const request = chunks.find((chunk) => chunk.type === 'tool-approval-request') as
      | { approvalId: string; toolCallId: string }
      | undefined;
    expect(request?.toolCallId).toBe('call-del');
    expect(
      chunks.some((chunk) => chunk.type === 'tool-output-available' && chunk.toolCallId === 'call-del'),
    ).toBe(false);
    expect(executed).toEqual([]);
    const [proposal] = await orchestrator.listProposals({ subject: 'ana', state: 'pending' });
    expect(request?.approvalId).toBe(proposal?.id);

    // The AI SDK UI shows the approval; the person approves (what addToolApprovalResponse records).
    const shown = await renderWithAiSdk(chunks);
    const part = shown.parts.find((candidate) => candidate.type === 'dynamic-tool');
    expect(part).toMatchObject({ state: 'approval-requested', approval: { id: proposal?.id } });
    const answered: UIMessage = {
      ...shown,
      parts: shown.parts.map((candidate) =>
        candidate === part
          ? ({
              ...candidate,
              state: 'approval-responded',
              approval: { id: proposal!.id, approved: true },
            } as typeof candidate)
          : candidate,
      ),
    };
    const messages: UIMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete WEB-1' }] },
      answered,
    ];
    expect(lastUserText(messages)).toBeUndefined();
    // What useChat's sendAutomaticallyWhen asks before it posts the decision back.
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages })).toBe(true);
    const approvals = approvalsFromUIMessages(messages);
    expect(approvals).toEqual([{ proposalId: proposal!.id, approved: true, toolCallId: 'call-del' }]);

    const resumed = streamTurn({
      ...base,
      model: createScriptedModel(['Done: WEB-1 is deleted.']),
      thread: 't1',
      approvals: approvals.map((approval) => ({ ...approval, decidedBy: 'ana' })),
    });
    const resumedChunks = await chunksOf(resumed.toUIMessageStream());
    expect(executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-1' } }]);
    const after = await renderWithAiSdk(resumedChunks, answered);
    expect(after.parts.find((candidate) => candidate.type === 'dynamic-tool')).toMatchObject({
      state: 'output-available',
      output: { ok: true, data: { deleted: 'WEB-1' } },
    });
    const result = await resumed.result;
    expect(JSON.stringify(result.thread.messages.at(-2)?.content)).toContain('<approval_decisions>');

    // The same decision sent again (a second tab, a replayed request) runs nothing.
    await streamTurn({
      ...base,
      model: createScriptedModel(['Already done.']),
      thread: 't1',
      approvals,
    }).result;
    expect(executed).toHaveLength(1);
  });

  it('on rejection runs nothing and marks the call denied', async () => {
    const { base, orchestrator } = await setup();
    await streamTurn({
      ...base,
      model: createScriptedModel([
        {
          toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-2' }, toolCallId: 'call-del' }],
        },
        'Waiting for approval.',
      ]),
      thread: 't1',
      message: 'Delete WEB-2',
    }).result;
    const [proposal] = await orchestrator.listProposals({ subject: 'ana', state: 'pending' });
    const resumed = streamTurn({
      ...base,
      model: createScriptedModel(['Understood, I did not delete it.']),
      thread: 't1',
      approvals: [{ proposalId: proposal!.id, approved: false, reason: 'Keep it.', toolCallId: 'call-del' }],
    });
    const chunks = await chunksOf(resumed.toUIMessageStream());
    expect(chunks).toContainEqual({ type: 'tool-output-denied', toolCallId: 'call-del' });
    expect(executed).toEqual([]);
    expect((await orchestrator.listProposals({ subject: 'ana' }))[0]?.state).toBe('rejected');
  });

  it("never decides another subject's proposal", async () => {
    const { base, orchestrator } = await setup();
    await streamTurn({
      ...base,
      subject: 'bob',
      model: createScriptedModel([
        { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-3' } }] },
        'Waiting.',
      ]),
      thread: 'bob-thread',
      message: 'Delete WEB-3',
    }).result;
    const [bobs] = await orchestrator.listProposals({ subject: 'bob', state: 'pending' });
    const events = await collect(
      streamTurn({
        ...base,
        model: createScriptedModel(['No.']),
        thread: 't1',
        approvals: [{ proposalId: bobs!.id, approved: true }],
      }),
    );
    expect(events.find((event) => event.type === 'approval-decided')).toMatchObject({
      approved: true,
      envelope: { ok: false, error_type: 'not_found' },
    });
    expect(executed).toEqual([]);
    expect((await orchestrator.listProposals({ subject: 'bob' }))[0]?.state).toBe('pending');
  });

  it('stops mid-stream when aborted: no more deltas, nothing half-written to the thread', async () => {
    const { base, threadStore } = await setup();
    const model = createScriptedModel(['This is a long answer that arrives slowly, piece by piece.'], {
      textChunkSize: 3,
      chunkDelayMs: 20,
    });
    const turn = streamTurn({ ...base, model, thread: 't1', message: 'Tell me a story' });
    const events: TurnEvent[] = [];
    for await (const event of turn) {
      events.push(event);
      if (event.type === 'text-delta' && events.filter((seen) => seen.type === 'text-delta').length === 2) {
        turn.abort();
      }
    }
    const result = await turn.result;
    expect(result.trace.outcome).toBe('aborted');
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(2);
    const stored = (await threadStore.load('t1'))?.messages ?? [];
    // The user's message and the stop notice: no partial model text.
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain('long answer');
  });

  it('aborts the turn when the UI stream is cancelled (the client went away)', async () => {
    const { base } = await setup();
    const model = createScriptedModel(['Slowly, slowly, slowly, slowly.'], {
      textChunkSize: 2,
      chunkDelayMs: 20,
    });
    const turn = streamTurn({ ...base, model, thread: 't1', message: 'Hi' });
    const reader = turn.toUIMessageStream().getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === 'text-delta') break;
    }
    await reader.cancel();
    expect((await turn.result).trace.outcome).toBe('aborted');
  });

  it('reports a model failure as an error chunk without its message, and rejects the result', async () => {
    const { base } = await setup();
    const model = createScriptedModel([
      () => {
        throw new Error('upstream said: key sk-live-123 is invalid');
      },
    ]);
    const turn = streamTurn({ ...base, model, thread: 't1', message: 'Hi' });
    const chunks = await chunksOf(turn.toUIMessageStream());
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The turn failed.' });
    expect(JSON.stringify(chunks)).not.toContain('sk-live-123');
    await expect(turn.result).rejects.toThrow('upstream said');
  });

  it('refuses a turn with neither a message nor approvals', async () => {
    const { base } = await setup();
    await expect(
      streamTurn({ ...base, model: createScriptedModel([]), thread: 't1' }).result,
    ).rejects.toThrow(/give a message, or approvals/);
  });
});
