import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runTurn } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';
import { createInMemoryThreadStore } from './thread-store.js';

const sent: { tool: string; input: unknown }[] = [];

const tracker = createFixtureConnector({
  id: 'tracker',
  tools: [
    defineTool({
      name: 'tracker_create_issue',
      description: 'Creates an issue in a project.',
      input: z.object({
        project: z
          .string()
          .describe('Project key')
          .meta({ question: 'Which project should the issue go in?' }),
        title: z
          .string()
          .min(3)
          .describe('Issue title')
          .meta({ question: 'What should the issue be called?' }),
      }),
      effect: 'write',
      requiredScopes: ['write'],
      execute: async (input) => {
        sent.push({ tool: 'tracker_create_issue', input });
        return success({ key: `${input.project}-1` });
      },
    }),
    defineTool({
      name: 'tracker_list_issues',
      description: 'Lists the open issues of a project.',
      input: z.object({ project: z.string().describe('Project key') }),
      effect: 'read',
      execute: async (input) => {
        sent.push({ tool: 'tracker_list_issues', input });
        return success([{ key: `${input.project}-7`, title: 'Flaky login' }]);
      },
    }),
  ],
});

const chat = createFixtureConnector({
  id: 'chat',
  tools: [
    defineTool({
      name: 'chat_post_message',
      description: 'Posts a message to a channel.',
      input: z.object({
        channel: z.string().describe('Channel name'),
        text: z.string().describe('Message text'),
      }),
      effect: 'write',
      execute: async (input) => {
        sent.push({ tool: 'chat_post_message', input });
        return success({ ts: '1' });
      },
    }),
  ],
});

const connectors = [tracker, chat];
const now = () => new Date('2026-11-21T15:00:00Z');

async function setup(options: { chat?: boolean } = {}) {
  sent.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' }, scopes: ['write'] });
  if (options.chat) statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  const execute = vi.spyOn(orchestrator, 'execute');
  return { statusSource, orchestrator, execute };
}

function textOf(call: LanguageModelV4CallOptions): string {
  return JSON.stringify(call.prompt);
}

describe('runTurn', () => {
  it('shows the model fresh status and only callable tools, runs calls through the orchestrator and returns the reply', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
      'WEB has one open issue: WEB-7 Flaky login.',
    ]);
    const result = await runTurn({
      model,
      thread: 't1',
      message: 'What is open in WEB?',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(result.reply).toBe('WEB has one open issue: WEB-7 Flaky login.');
    expect(model.calls[0]!.tools?.map((tool) => tool.name)).toEqual([
      'tracker_create_issue',
      'tracker_list_issues',
      'refresh_connector_status',
    ]);
    expect(textOf(model.calls[0]!)).toContain('<connector_status captured_at=\\"2026-11-21T15:00:00Z\\">');
    expect(textOf(model.calls[0]!)).toContain('\\"chat\\":{\\"setup_url\\":\\"https://chat.test/connect\\"');
    expect(execute).toHaveBeenCalledWith(
      'tracker_list_issues',
      { project: 'WEB' },
      expect.objectContaining({ subject: 'ana' }),
    );
    // The envelope is the tool result of the next prompt, without meta.
    const second = JSON.stringify(model.calls[1]!.prompt.at(-1));
    expect(second).toContain('"ok":true');
    expect(second).not.toContain('correlation_id');
    expect(result.trace.calls).toHaveLength(1);
    expect(result.trace.calls[0]).toMatchObject({
      toolName: 'tracker_list_issues',
      sent: true,
      envelope: { ok: true },
    });
    expect(result.trace.steps.map((step) => step.prompt)).toEqual(model.prompts);
    expect(result.trace.exposedTools).not.toContain('chat_post_message');
    expect(result.trace.outcome).toBe('replied');
  });

  it('stamps and stores the turn so the next turn re-sends the same history bytes', async () => {
    const { statusSource, orchestrator } = await setup();
    const threadStore = createInMemoryThreadStore();
    const common = { thread: 't2', subject: 'ana', orchestrator, connectors, statusSource, threadStore };
    const first = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
      'One issue.',
    ]);
    await runTurn({ ...common, model: first, message: 'List WEB', now });
    const stored = (await threadStore.load('t2'))!.messages;
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(stored[0])).toContain('[2026-11-21T15:00:00Z]');
    expect(JSON.stringify(stored)).not.toContain('<connector_status');

    const second = createScriptedModel(['Still one.']);
    const later = () => new Date('2026-11-25T09:00:00Z');
    await runTurn({ ...common, model: second, message: 'And now?', now: later });
    const before = first.calls[1]!.prompt;
    const after = second.calls[0]!.prompt;
    // system + the first turn's user message (stored form: without the context) are a byte-identical prefix.
    expect(JSON.stringify(after[0])).toBe(JSON.stringify(before[0]));
    expect(JSON.stringify(after)).toContain('<current_time>2026-11-25T09:00:00Z</current_time>');
    expect((await threadStore.load('t2'))!.messages).toHaveLength(6);
  });

  it('answers refresh_connector_status with a fresh capture and offers the newly connected tools next step', async () => {
    const { statusSource, orchestrator } = await setup();
    const model = createScriptedModel([
      (call) => {
        expect(call.tools?.map((tool) => tool.name)).not.toContain('chat_post_message');
        statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
        return { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] };
      },
      (call) => {
        expect(call.tools?.map((tool) => tool.name)).toContain('chat_post_message');
        return 'Chat is connected now.';
      },
    ]);
    const result = await runTurn({
      model,
      thread: 't3',
      message: 'I just connected chat, check it',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(result.trace.calls[0]!.envelope).toMatchObject({
      ok: true,
      data: { connector_status: { chat: { status: 'connected', tools: ['chat_post_message'] } } },
    });
    expect(result.reply).toBe('Chat is connected now.');
  });

  it('retries needs_input with guidance and a raised temperature, and counts the success', async () => {
    const { statusSource, orchestrator } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { title: 'Login is broken' } }] },
      (call) => {
        expect(textOf(call)).toContain('<retry_guidance attempt=\\"2\\" max_attempts=\\"3\\">');
        expect(textOf(call)).toContain('Which project should the issue go in?');
        return {
          toolCalls: [
            { toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Login is broken' } },
          ],
        };
      },
      'Created WEB-1.',
    ]);
    const result = await runTurn({
      model,
      thread: 't4',
      message: 'File "Login is broken" in the WEB project',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      temperature: 0.3,
      now,
    });
    expect(result.reply).toBe('Created WEB-1.');
    expect(model.calls.map((call) => call.temperature)).toEqual([0.3, 0.5, 0.3]);
    expect(result.trace.retries).toHaveLength(1);
    expect(result.trace.retries[0]!.failures).toEqual([
      { toolName: 'tracker_create_issue', error_type: 'needs_input', missing: ['project'] },
    ]);
    expect(result.trace.counters).toMatchObject({
      toolResults: 2,
      interactiveErrors: 1,
      interactiveErrorRate: 0.5,
      retrySequences: 1,
      retrySuccesses: 1,
      retrySuccessRate: 1,
    });
    expect(sent).toEqual([
      { tool: 'tracker_create_issue', input: { project: 'WEB', title: 'Login is broken' } },
    ]);
  });

  it('is bounded: after maxAttempts retries it stops and asks the user', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    let n = 0;
    // Always a different invalid title, so no call is a duplicate and only the bound stops it.
    const model = createScriptedModel(() => {
      n += 1;
      return {
        toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: String(n) } }],
      };
    });
    const result = await runTurn({
      model,
      thread: 't5',
      message: 'Make an issue in WEB',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      retry: { maxAttempts: 2 },
      now,
    });
    expect(model.calls).toHaveLength(3);
    expect(execute).toHaveBeenCalledTimes(3);
    expect(result.trace.retries.map((item) => item.attempt)).toEqual([1, 2]);
    expect(model.calls.map((call) => call.temperature)).toEqual([undefined, 0.7, 0.9]);
    expect(result.trace.outcome).toBe('asked_user');
    expect(result.reply).toMatch(/tracker_create_issue/);
    expect(result.reply).toMatch(/title/);
    expect(result.trace.counters.retrySuccessRate).toBe(0);
    expect(sent).toEqual([]);
  });

  it('makes 3 model calls in all for a call that keeps failing, as seed 001 counts attempts', async () => {
    const counts: number[] = [];
    for (const retry of [{}, { totalAttempts: 1 }, { totalAttempts: 5 }, { maxAttempts: 3 }]) {
      const { statusSource, orchestrator } = await setup();
      let n = 0;
      const model = createScriptedModel(() => {
        n += 1;
        return {
          toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: String(n) } }],
        };
      });
      const result = await runTurn({
        model,
        thread: `count-${counts.length}`,
        message: 'Make an issue in WEB',
        subject: 'ana',
        orchestrator,
        connectors,
        statusSource,
        retry,
        now,
      });
      expect(result.trace.outcome).toBe('asked_user');
      counts.push(model.calls.length);
    }
    // Default, totalAttempts 1 and 5, and the deprecated maxAttempts 3 (= totalAttempts 4).
    expect(counts).toEqual([3, 1, 5, 4]);
    const { statusSource, orchestrator } = await setup();
    await expect(
      runTurn({
        model: createScriptedModel(['hi']),
        thread: 'both',
        message: 'hi',
        subject: 'ana',
        orchestrator,
        connectors,
        statusSource,
        retry: { totalAttempts: 3, maxAttempts: 2 },
        now,
      }),
    ).rejects.toThrow('not both');
  });

  it('never sends an identical call twice: the repeat gets the earlier envelope without reaching the orchestrator', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const bad = { toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'x' } };
    const model = createScriptedModel([
      { toolCalls: [bad] },
      { toolCalls: [bad] },
      { toolCalls: [bad] },
      'I give up.',
    ]);
    const result = await runTurn({
      model,
      thread: 't6',
      message: 'Issue in WEB titled x',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      retry: { totalAttempts: 4 },
      now,
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.trace.calls.map((call) => call.skipped)).toEqual([undefined, 'duplicate', 'duplicate']);
    expect(result.trace.calls[1]!.envelope).toEqual(result.trace.calls[0]!.envelope);
    expect(result.reply).toBe('I give up.');
  });

  it('never repeats a call that succeeded with a side effect', async () => {
    const { statusSource, orchestrator, execute } = await setup({ chat: true });
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'chat_post_message', input: { channel: 'eng', text: 'Deploying' } },
          { toolName: 'tracker_create_issue', input: { project: 'OPS' } },
        ],
      },
      {
        toolCalls: [
          { toolName: 'chat_post_message', input: { channel: 'eng', text: 'Deploying now' } },
          { toolName: 'tracker_create_issue', input: { project: 'OPS', title: 'Deploy' } },
        ],
      },
      'Posted and filed OPS-1.',
    ]);
    const result = await runTurn({
      model,
      thread: 't7',
      message: 'Tell eng we are deploying and file an OPS issue titled Deploy',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(sent.filter((call) => call.tool === 'chat_post_message')).toHaveLength(1);
    expect(execute.mock.calls.map((call) => call[0])).toEqual([
      'chat_post_message',
      'tracker_create_issue',
      'tracker_create_issue',
    ]);
    expect(result.trace.calls[2]).toMatchObject({ skipped: 'side_effect_done', sent: false });
    expect(result.trace.counters.retrySuccesses).toBe(1);
  });

  it('retries a failed sibling of a write that succeeded, but never re-runs a write beyond the open failures', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'tracker_create_issue', input: { project: 'OPS', title: 'Disk full' } },
          { toolName: 'tracker_create_issue', input: { project: 'OPS' } },
        ],
      },
      {
        toolCalls: [
          { toolName: 'tracker_create_issue', input: { project: 'OPS', title: 'Disk full' } },
          { toolName: 'tracker_create_issue', input: { project: 'OPS', title: 'Backups late' } },
          // One open failure, one retry: a further write of the same tool is not sent.
          { toolName: 'tracker_create_issue', input: { project: 'OPS', title: 'Backups' } },
        ],
      },
      'Filed both.',
    ]);
    const result = await runTurn({
      model,
      thread: 't7b',
      message: 'File two OPS issues: Disk full, and Backups late',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(sent.map((call) => call.input)).toEqual([
      { project: 'OPS', title: 'Disk full' },
      { project: 'OPS', title: 'Backups late' },
    ]);
    expect(execute).toHaveBeenCalledTimes(3);
    expect(result.trace.calls.map((call) => call.skipped)).toEqual([
      undefined,
      undefined,
      'duplicate',
      undefined,
      'side_effect_done',
    ]);
    expect(result.trace.counters.retrySuccesses).toBe(1);
    expect(result.trace.outcome).not.toBe('asked_user');
  });

  it('keeps the questions of every failed call of one tool', async () => {
    const { statusSource, orchestrator } = await setup();
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'tracker_create_issue', input: { title: 'Disk full' } },
          { toolName: 'tracker_create_issue', input: { project: 'OPS' } },
        ],
      },
      'Working on it.',
    ]);
    const result = await runTurn({
      model,
      thread: 't7c',
      message: 'File two issues',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(result.trace.outcome).toBe('asked_user');
    expect(result.trace.questions).toEqual(
      expect.arrayContaining(['Which project should the issue go in?', 'What should the issue be called?']),
    );
    expect(sent).toEqual([]);
  });

  it('does not count an empty value as something the user said', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { title: 'Login is broken' } }] },
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: '', title: 'Login is broken' } }] },
    ]);
    const result = await runTurn({
      model,
      thread: 't8b',
      message: 'File an issue: Login is broken',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.trace.calls[1]).toMatchObject({ skipped: 'ungrounded_input', sent: false });
    expect(result.trace.questions).toEqual(['Which project should the issue go in?']);
  });

  it('does not send a needs_input retry whose value the user never gave: it asks the envelope question instead', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { title: 'Login is broken' } }] },
      // An invented project key: the user never named one.
      {
        toolCalls: [
          { toolName: 'tracker_create_issue', input: { project: 'MADEUP', title: 'Login is broken' } },
        ],
      },
    ]);
    const result = await runTurn({
      model,
      thread: 't8',
      message: 'File an issue: Login is broken',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.trace.calls[1]).toMatchObject({ skipped: 'ungrounded_input', sent: false });
    expect(result.trace.outcome).toBe('asked_user');
    expect(result.trace.questions).toEqual(['Which project should the issue go in?']);
    expect(result.reply).toContain('Which project should the issue go in?');
    expect(result.reply).not.toContain('MADEUP');
    expect(sent).toEqual([]);
    // Every tool call in the stored thread has its result, so the next turn is a valid prompt.
    const roles = result.thread.messages.map((message) => message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });

  it('adds the envelope questions when the model answers without asking them', async () => {
    const { statusSource, orchestrator } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB' } }] },
      'Sure, working on it.',
    ]);
    const result = await runTurn({
      model,
      thread: 't9',
      message: 'New issue in WEB please',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(result.trace.outcome).toBe('asked_user');
    expect(result.reply).toContain('What should the issue be called?');
  });

  it("with needsInput 'ask' hands needs_input to the user at once", async () => {
    const { statusSource, orchestrator } = await setup();
    const model = createScriptedModel([{ toolCalls: [{ toolName: 'tracker_create_issue', input: {} }] }]);
    const result = await runTurn({
      model,
      thread: 't10',
      message: 'New issue',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      retry: { needsInput: 'ask' },
      now,
    });
    expect(model.calls).toHaveLength(1);
    expect(result.trace.retries).toEqual([]);
    expect(result.reply).toContain('Which project should the issue go in?');
    expect(result.reply).toContain('What should the issue be called?');
  });

  it('answers unparsable tool arguments with invalid_arguments without calling the orchestrator', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_list_issues', input: '{"project": ' }] },
      { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
      'One issue.',
    ]);
    const result = await runTurn({
      model,
      thread: 't11',
      message: 'List WEB',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      now,
    });
    expect(result.trace.calls[0]).toMatchObject({
      skipped: 'invalid_json',
      envelope: { error_type: 'invalid_arguments' },
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.reply).toBe('One issue.');
  });

  it('stops at maxSteps', async () => {
    const { statusSource, orchestrator } = await setup();
    let n = 0;
    const model = createScriptedModel(() => {
      n += 1;
      return { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: `P${n}` } }] };
    });
    const result = await runTurn({
      model,
      thread: 't12',
      message: 'List everything',
      subject: 'ana',
      orchestrator,
      connectors,
      statusSource,
      maxSteps: 3,
      now,
    });
    expect(model.calls).toHaveLength(3);
    expect(result.trace.outcome).toBe('step_limit');
  });

  it('never shows credentials to the model, even when a service echoes them', async () => {
    // A service that answers with the caller's token (as some error pages and debug endpoints do).
    const echo = createFixtureConnector({
      id: 'echo',
      tools: [
        defineTool({
          name: 'echo_whoami',
          description: 'Shows how the request was authorised.',
          input: z.object({}),
          effect: 'read',
          execute: async (_input, context) =>
            success({
              authorization: `Bearer ${context.credentials.token}`,
              note: context.credentials.token,
            }),
        }),
      ],
    });
    const statusSource = createInMemoryStatusSource();
    statusSource.connect('ana', 'echo', { credentials: { token: 'echo-secret-1' } });
    const orchestrator = createOrchestrator({ statusSource, connectors: [echo] });
    await orchestrator.start();
    const model = createScriptedModel([{ toolCalls: [{ toolName: 'echo_whoami', input: {} }] }, 'ok']);
    const result = await runTurn({
      model,
      thread: 't13',
      message: 'Who am I on Echo?',
      subject: 'ana',
      orchestrator,
      connectors: [echo],
      statusSource,
      now,
    });
    expect(result.trace.calls[0]).toMatchObject({ sent: true, envelope: { ok: true } });
    expect(model.calls).toHaveLength(2);
    expect(JSON.stringify(model.calls)).not.toMatch(/echo-secret-1/);
    expect(JSON.stringify(result.thread)).not.toMatch(/echo-secret-1/);
  });
});
