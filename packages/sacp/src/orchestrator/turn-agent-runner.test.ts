import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { createInMemoryThreadStore } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { type ModelMessage, tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditLog } from '../audit-log.js';
import { defineChain } from '../chain.js';
import type { SacpReply } from '../reply.js';
import { type TurnAgentEvent, turnAgentRunner } from './turn-agent-runner.js';

/** Requests that reached the tracker "service"; an in-process stand-in for its HTTP API. */
const sent: { tool: string; input: unknown }[] = [];

const tracker = createFixtureConnector({
  id: 'tracker',
  tools: [
    defineTool({
      name: 'tracker_list_issues',
      description: 'Lists the open issues of a project.',
      input: z.object({ project: z.string().describe('Project key') }),
      effect: 'read',
      execute: async (input) => {
        sent.push({ tool: 'tracker_list_issues', input });
        return success([{ key: `${input.project}-7`, title: 'Login fails for SSO users', severity: 'high' }]);
      },
    }),
    defineTool({
      name: 'tracker_create_issue',
      description: 'Creates an issue in a project.',
      input: z.object({
        project: z.string().describe('Project key'),
        title: z.string().describe('Issue title').meta({ question: 'What should the issue be called?' }),
      }),
      effect: 'write',
      requiredScopes: ['write'],
      execute: async (input) => {
        sent.push({ tool: 'tracker_create_issue', input });
        return success({ key: `${input.project}-8` });
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
      input: z.object({ channel: z.string().describe('Channel name'), text: z.string().describe('Text') }),
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

async function setup() {
  sent.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' }, scopes: ['write'] });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  const execute = vi.spyOn(orchestrator, 'execute');
  return { statusSource, orchestrator, execute };
}

const sacp = (reply: SacpReply) => JSON.stringify(reply);

/** The value of the last tool result in a prompt: the envelope as the model read it. */
function lastToolResult(prompt: LanguageModelV4Prompt): Record<string, unknown> {
  for (const message of [...prompt].reverse()) {
    if (message.role !== 'tool') continue;
    const part = message.content.at(-1);
    if (part?.type === 'tool-result' && part.output.type === 'json')
      return part.output.value as Record<string, unknown>;
  }
  throw new Error('no tool result in the prompt');
}

const promptText = (call: LanguageModelV4CallOptions) => JSON.stringify(call.prompt);

describe('turnAgentRunner', () => {
  it('runs agent nodes through the turn runner: node 1 calls a connector tool through the orchestrator, node 2 routes on its data', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const lister = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
      (call) => {
        const envelope = lastToolResult(call.prompt) as { data: { key: string }[] };
        return sacp({
          thought: 'Listed the open issues.',
          status: 'success',
          data: { issues: envelope.data, count: envelope.data.length },
          message: `WEB has ${envelope.data.length} open issue.`,
        });
      },
    ]);
    const triager = createScriptedModel([
      (call) => {
        const high = promptText(call).includes('\\"severity\\":\\"high\\"');
        return sacp({
          thought: 'Checked severities.',
          status: 'success',
          data: { priority: high ? 'high' : 'low' },
          message: high ? 'WEB-7 needs attention now.' : 'Nothing urgent.',
        });
      },
    ]);
    const turns: TurnAgentEvent[] = [];
    const threadStore = createInMemoryThreadStore();
    const audit = createMemoryAuditLog();
    const done = (message: string) => async () =>
      ({ thought: '', status: 'completed', data: {}, message }) satisfies SacpReply;
    const chain = defineChain({
      id: 'triage',
      start: 'lister',
      nodes: {
        lister: { model: lister, system: 'You list open issues.', carryToolOutputs: true },
        triager: { model: triager, system: 'You rate issues.', input: '{{lister.data.issues}}' },
        escalate: { run: done('Escalated.') },
        backlog: { run: done('Left in the backlog.') },
        nothing: { run: done('Nothing open.') },
      },
      edges: [
        { from: 'lister', to: 'triager', status: 'success', when: 'data.count > 0' },
        { from: 'lister', to: 'nothing' },
        { from: 'triager', to: 'escalate', when: 'data.priority == "high"' },
        { from: 'triager', to: 'backlog' },
      ],
      runAgent: turnAgentRunner({
        orchestrator,
        connectors,
        statusSource,
        subject: 'ana',
        threadStore,
        now,
        onTurn: (event) => turns.push(event),
      }),
      audit,
    });

    const result = await chain.run('What is open in WEB?', { correlationId: 'run-1' });

    expect(result.state).toBe('done');
    expect(result.trace.map((entry) => entry.node)).toEqual(['lister', 'triager', 'escalate']);
    // The call went through the orchestrator's gate, for the subject, once.
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]?.slice(0, 2)).toEqual(['tracker_list_issues', { project: 'WEB' }]);
    expect(execute.mock.calls[0]?.[2]).toMatchObject({ subject: 'ana' });
    expect(sent).toEqual([{ tool: 'tracker_list_issues', input: { project: 'WEB' } }]);
    // The model was offered only what is usable, and saw the status and the SACP format.
    expect(lister.calls[0]?.tools?.map((offered) => offered.name)).toEqual([
      'tracker_create_issue',
      'tracker_list_issues',
      'refresh_connector_status',
    ]);
    expect(promptText(lister.calls[0]!)).toContain('<connector_status');
    expect(promptText(lister.calls[0]!)).toContain('Reply format (SACP)');
    // Node 1's data holds the tool output; node 2 received it through the template.
    const issues = [{ key: 'WEB-7', title: 'Login fails for SSO users', severity: 'high' }];
    expect(result.outputs.lister?.data.issues).toEqual(issues);
    expect(result.outputs.lister?.data.tool_outputs).toEqual([
      { tool_name: 'tracker_list_issues', input: { project: 'WEB' }, output: { ok: true, data: issues } },
    ]);
    expect(promptText(triager.calls[0]!)).toContain('WEB-7');
    expect(result.outputs.triager?.data).toEqual({ priority: 'high' });
    // Each node turn was recorded as its own stamped thread, and audited.
    expect(turns.map((turn) => [turn.nodeId, turn.threadId, turn.result.trace.outcome])).toEqual([
      ['lister', 'sacp:run-1:lister', 'replied'],
      ['triager', 'sacp:run-1:triager', 'replied'],
    ]);
    const listerThread = await threadStore.load('sacp:run-1:lister');
    expect(listerThread?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(JSON.stringify(listerThread?.messages[0])).toContain('[2026-11-21T15:00:00Z]');
    expect(audit.records.map((record) => [record.node, record.status])).toEqual([
      ['lister', 'success'],
      ['triager', 'success'],
      ['escalate', 'completed'],
    ]);
  });

  it('gives a node whose tool needs a connector that is not connected the envelope, and it replies failure with the setup URL', async () => {
    const { statusSource, orchestrator } = await setup();
    const seen: Record<string, unknown>[] = [];
    const notifier = createScriptedModel([
      { toolCalls: [{ toolName: 'chat_post_message', input: { channel: 'ops', text: 'WEB-7 is open' } }] },
      (call) => {
        const envelope = lastToolResult(call.prompt) as { error_type: string; setup_url: string };
        seen.push(envelope);
        return sacp({
          thought: 'Chat is not connected.',
          status: 'failure',
          data: { error_type: envelope.error_type },
          message: `I could not post to chat because it is not connected. Connect it here: ${envelope.setup_url}`,
        });
      },
    ]);
    const chain = defineChain({
      start: 'notifier',
      nodes: { notifier: { model: notifier, system: 'You notify the team.' } },
      runAgent: turnAgentRunner({ orchestrator, connectors, statusSource, subject: 'ana', now }),
    });

    const result = await chain.run('Tell #ops that WEB-7 is open.');

    expect(notifier.calls[0]?.tools?.map((offered) => offered.name)).not.toContain('chat_post_message');
    expect(seen[0]).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      connector: 'chat',
      setup_url: 'https://chat.test/connect',
    });
    expect(sent).toEqual([]);
    expect(result.state).toBe('failed');
    expect(result.reply.status).toBe('failure');
    expect(result.reply.message).toContain('https://chat.test/connect');
    expect(result.trace[0]?.ok).toBe(true);
  });

  it('pauses the chain with the questions when a tool needs input only the user can give, and resumes with the answer', async () => {
    const { statusSource, orchestrator } = await setup();
    const filer = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB' } }] },
      (call) => {
        const text = promptText(call);
        expect(text).toContain('The user answered your question: Login fails for SSO users');
        return {
          toolCalls: [
            {
              toolName: 'tracker_create_issue',
              input: { project: 'WEB', title: 'Login fails for SSO users' },
            },
          ],
        };
      },
      (call) =>
        sacp({
          thought: 'Filed it.',
          status: 'success',
          data: { key: (lastToolResult(call.prompt).data as { key: string }).key },
          message: 'Filed WEB-8.',
        }),
    ]);
    const chain = defineChain({
      start: 'filer',
      nodes: { filer: { model: filer, system: 'You file issues.' } },
      runAgent: turnAgentRunner({
        orchestrator,
        connectors,
        statusSource,
        subject: 'ana',
        now,
        retry: { needsInput: 'ask' },
      }),
    });

    const paused = await chain.run('File a bug in WEB.');
    expect(paused.state).toBe('paused');
    if (paused.state !== 'paused') return;
    expect(paused.reply.status).toBe('clarification_needed');
    expect(paused.question).toContain('What should the issue be called?');
    expect(paused.reply.data.questions).toEqual(['What should the issue be called?']);
    expect(sent).toEqual([]);

    const resumed = await chain.resume(paused.resumeToken, 'Login fails for SSO users');
    expect(resumed.state).toBe('done');
    expect(resumed.reply).toMatchObject({ status: 'success', data: { key: 'WEB-8' } });
    expect(sent).toEqual([
      { tool: 'tracker_create_issue', input: { project: 'WEB', title: 'Login fails for SSO users' } },
    ]);
  });

  it('re-asks with the stamped history of the first attempt', async () => {
    const { statusSource, orchestrator } = await setup();
    const counter = createScriptedModel([
      sacp({ thought: '', status: 'success', data: {}, message: 'Counted.' }),
      sacp({ thought: '', status: 'success', data: { count: 1 }, message: 'Counted.' }),
    ]);
    const threadStore = createInMemoryThreadStore<ModelMessage>();
    const chain = defineChain({
      start: 'counter',
      nodes: {
        counter: {
          model: counter,
          system: 'You count issues.',
          dataSchema: z.object({ count: z.number().describe('How many') }),
        },
      },
      runAgent: turnAgentRunner({ orchestrator, connectors, statusSource, subject: 'ana', now, threadStore }),
    });

    const result = await chain.run('Count the issues.', { correlationId: 'run-2' });

    expect(result.state).toBe('done');
    expect(result.trace[0]?.reasks).toBe(1);
    const thread = (await threadStore.load('sacp:run-2:counter'))!.messages;
    // The re-ask's prompt replays the thread as stored: same stamped messages, then the re-ask.
    const replay = JSON.stringify(counter.prompts[1]);
    expect(thread).toHaveLength(4);
    expect(replay).toContain(JSON.stringify((thread[0]!.content as { text: string }[])[0]));
    expect(counter.prompts[1]?.[1]).toEqual({
      role: 'user',
      content: (thread[0]!.content as { text: string }[]).map((part) => ({ type: 'text', text: part.text })),
    });
  });

  it('does not repeat a write in a re-ask: a model that wrote, answered in prose and sends the write again reaches the service once', async () => {
    const { statusSource, orchestrator, execute } = await setup();
    const create = { toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Login fails' } };
    const writer = createScriptedModel([
      { toolCalls: [create] },
      'Created WEB-8 for you.',
      // The re-ask: the same write again, and a variant of it, in one step.
      { toolCalls: [create, { ...create, input: { project: 'WEB', title: 'Login fails (again)' } }] },
      (call) => {
        const refusal = lastToolResult(call.prompt);
        return sacp({
          thought: '',
          status: 'success',
          data: { key: 'WEB-8', refused: refusal.error_type },
          message: 'Created WEB-8.',
        });
      },
    ]);
    const chain = defineChain({
      start: 'writer',
      nodes: { writer: { model: writer, system: 'You file issues.' } },
      runAgent: turnAgentRunner({ orchestrator, connectors, statusSource, subject: 'ana', now }),
    });

    const result = await chain.run('File "Login fails" in WEB.');

    expect(sent).toEqual([{ tool: 'tracker_create_issue', input: create.input }]);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.state).toBe('done');
    expect(result.trace[0]?.reasks).toBe(1);
    // The re-ask still offered the tools (same prompt), and answered the repeated calls with a refusal.
    expect(writer.calls[2]?.tools?.map((offered) => offered.name)).toContain('tracker_create_issue');
    expect(result.reply.data).toEqual({ key: 'WEB-8', refused: 'conflict' });
  });

  it('ends a node that runs out of steps with a failure reply, and offers each node only its connectors', async () => {
    const { statusSource, orchestrator } = await setup();
    const looper = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
    ]);
    const chain = defineChain({
      start: 'looper',
      nodes: { looper: { model: looper, system: 'You keep looking.' } },
      runAgent: turnAgentRunner({
        orchestrator,
        connectors: (nodeId) => (nodeId === 'looper' ? [tracker] : connectors),
        statusSource,
        subject: 'ana',
        now,
        maxSteps: 1,
      }),
    });

    const result = await chain.run('Look at WEB.');

    expect(looper.calls).toHaveLength(1);
    expect(looper.calls[0]?.tools?.map((offered) => offered.name)).toEqual([
      'tracker_create_issue',
      'tracker_list_issues',
      'refresh_connector_status',
    ]);
    expect(promptText(looper.calls[0]!)).not.toContain('\\"chat\\"');
    expect(result.state).toBe('failed');
    expect(result.reply).toMatchObject({ status: 'failure', data: { error_code: 'turn_step_limit' } });
    expect(result.reply.message).toContain('I stopped after 1 steps');
    expect(result.trace[0]?.ok).toBe(true);
  });

  it('ends a node whose model hangs with a timed-out failure instead of hanging the chain', async () => {
    const { statusSource, orchestrator } = await setup();
    const hung = createScriptedModel(() => new Promise<never>(() => {}));
    const chain = defineChain({
      start: 'waiter',
      nodes: { waiter: { model: hung, system: 'You wait.' } },
      runAgent: turnAgentRunner({
        orchestrator,
        connectors,
        statusSource,
        subject: 'ana',
        now,
        modelTimeoutMs: 50,
      }),
    });

    const result = await chain.run('Anything new?');

    expect(hung.calls).toHaveLength(1);
    expect(result.state).toBe('failed');
    expect(result.reply).toMatchObject({ status: 'failure', data: { error_code: 'turn_timed_out' } });
    expect(result.reply.message).toContain('did not answer');
  });

  it('refuses a node that brings its own AI SDK tools: they would bypass the orchestrator', async () => {
    const { statusSource, orchestrator } = await setup();
    const model = createScriptedModel([]);
    const chain = defineChain({
      start: 'rogue',
      nodes: {
        rogue: {
          model,
          system: 'You do things.',
          tools: {
            shell: tool({ description: 'Runs a command', inputSchema: z.object({ command: z.string() }) }),
          },
        },
      },
      runAgent: turnAgentRunner({ orchestrator, connectors, statusSource, subject: 'ana', now }),
    });

    const result = await chain.run('Go.');

    expect(result.state).toBe('failed');
    expect(result.reply.message).toContain('declares AI SDK tools');
    expect(result.trace[0]?.error?.code).toBe('sacp_invalid_chain');
    expect(model.calls).toHaveLength(0);
  });
});
