import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Command, INTERRUPT, type Interrupt, isInterrupted, MemorySaver } from '@langchain/langgraph';
import { createScriptedModel, type ScriptedStep } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { createPatchbayAgentGraph } from './agent-graph.js';
import { chatModelFromLanguageModel } from './language-model-chat-model.js';
import { createPatchbayToolkit, type PatchbayToolArtifact } from './patchbay-toolkit.js';
import { executed, setupWorld } from './test-connectors.js';

async function setup(steps: readonly ScriptedStep[]) {
  const world = await setupWorld();
  const toolkit = await createPatchbayToolkit({
    subject: world.subject,
    orchestrator: world.orchestrator,
    connectors: world.connectors,
    statusSource: world.statusSource,
  });
  const model = createScriptedModel(steps);
  const graph = createPatchbayAgentGraph({
    model: chatModelFromLanguageModel(model),
    toolkit,
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: 'thread-1' } };
  return { ...world, toolkit, model, graph, config };
}

const offeredNames = (call: { tools?: { name: string }[] }) => (call.tools ?? []).map((tool) => tool.name);
const firstUserText = (prompt: { role: string; content: unknown }[]) => {
  const user = prompt.findLast((message) => message.role === 'user')!;
  return (user.content as { text: string }[])[0]!.text;
};
const pauses = (state: unknown): Interrupt<Record<string, unknown>>[] =>
  isInterrupted<Record<string, unknown>>(state) ? state[INTERRUPT] : [];
const toolMessages = (messages: unknown[]) => messages.filter((message) => ToolMessage.isInstance(message));

describe('createPatchbayAgentGraph', () => {
  it('captures status fresh before every model call and binds only the tools that can run now', async () => {
    let world: Awaited<ReturnType<typeof setup>> | undefined;
    world = await setup([
      () => {
        // The user connects chat while the first step runs: the next model call must see it.
        world!.statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
        return {
          toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken' } }],
        };
      },
      'Filed WEB-1.',
    ]);
    const { graph, config, model } = world;
    const state = await graph.invoke({ messages: [new HumanMessage('File a bug in WEB: Broken')] }, config);
    expect(state.messages.at(-1)?.content).toBe('Filed WEB-1.');
    expect(offeredNames(model.calls[0]!)).toEqual([
      'tracker_create_issue',
      'tracker_delete_issue',
      'refresh_connector_status',
    ]);
    expect(offeredNames(model.calls[1]!)).toContain('chat_post_message');
    expect(firstUserText(model.calls[0]!.prompt)).toMatch(/"chat":\{[^}]*"status":"not_configured"/);
    expect(firstUserText(model.calls[1]!.prompt)).toMatch(/"chat":\{[^}]*"status":"connected"/);
    // The block is placed per call and never stored: one block per prompt, none in the state.
    for (const call of model.calls) {
      expect(JSON.stringify(call.prompt).match(/<connector_status /g)).toHaveLength(1);
    }
    expect(JSON.stringify(state.messages)).not.toContain('<connector_status');
    expect(world.toolkit.steps.map((step) => step.index)).toEqual([0, 1]);
  });

  it('answers a call of a tool not offered now with the envelope as tool message content, without running it', async () => {
    const { graph, config, toolkit } = await setup([
      { toolCalls: [{ toolName: 'chat_post_message', input: { channel: 'dev', text: 'hi' } }] },
      'Chat is not connected.',
    ]);
    const state = await graph.invoke({ messages: [new HumanMessage('Tell #dev hi')] }, config);
    expect(executed).toEqual([]);
    const [result] = toolMessages(state.messages) as ToolMessage[];
    expect(JSON.parse(result!.content as string)).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
    });
    expect(result!.status).toBe('error');
    expect((result!.artifact as PatchbayToolArtifact).skipped).toBe('not_offered');
    expect(toolkit.session.calls).toHaveLength(1);
    expect(toolkit.session.calls[0]).toMatchObject({ toolName: 'chat_post_message', sent: false });
  });

  it('lets the gate answer a call with a missing field (needs_input with its question), not LangChain’s schema check', async () => {
    const { graph, config, model } = await setup([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { title: 'Broken login' } }] },
      'Which project should the issue go in?',
    ]);
    const state = await graph.invoke({ messages: [new HumanMessage('File a bug: Broken login')] }, config);
    const content = JSON.parse((toolMessages(state.messages)[0] as ToolMessage).content as string);
    expect(content).toMatchObject({ ok: false, error_type: 'needs_input' });
    expect(JSON.stringify(content)).toContain('Which project should the issue go in?');
    expect(content.retry_guidance).toContain('<retry_guidance');
    expect(JSON.stringify(state.messages)).not.toContain('did not match expected schema');
    // The model read the envelope as a JSON tool result.
    const toolPart = model.calls[1]!.prompt.find((message) => message.role === 'tool')!.content[0];
    expect(toolPart).toMatchObject({ type: 'tool-result', output: { type: 'json', value: content } });
    expect(executed).toEqual([]);
  });

  it('answers unknown tool names and arguments that are not JSON through the gate', async () => {
    const { graph, config, toolkit } = await setup([
      {
        toolCalls: [
          { toolName: 'tracker_explode', input: {} },
          { toolName: 'tracker_create_issue', input: '{"project": "WEB", "title": ' },
        ],
      },
      'Sorry.',
    ]);
    const state = await graph.invoke({ messages: [new HumanMessage('Do things')] }, config);
    const results = toolMessages(state.messages) as ToolMessage[];
    expect(results.map((message) => message.tool_call_id).sort()).toEqual(['call-1', 'call-2']);
    expect(toolkit.session.calls.map((call) => call.skipped)).toEqual(['not_offered', 'invalid_json']);
    expect(state.messages.at(-1)?.content).toBe('Sorry.');
    expect(executed).toEqual([]);
  });

  it('pauses with interrupt() for an approval and, resumed approved, runs the call exactly once', async () => {
    const { graph, config, orchestrator } = await setup([
      { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-7' } }] },
      'Deleted WEB-7.',
    ]);
    const paused = await graph.invoke({ messages: [new HumanMessage('Delete WEB-7')] }, config);
    expect(pauses(paused)).toHaveLength(1);
    const request = pauses(paused)[0]!.value!;
    expect(request).toMatchObject({
      proposal_id: expect.any(String),
      tool: 'tracker_delete_issue',
      args: { key: 'WEB-7' },
      message: expect.any(String),
    });
    expect(executed).toEqual([]);
    const done = await graph.invoke(new Command({ resume: { approved: true } }), config);
    expect(executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-7' } }]);
    const result = toolMessages(done.messages).at(-1) as ToolMessage;
    expect(JSON.parse(result.content as string)).toMatchObject({ ok: true, data: { deleted: 'WEB-7' } });
    expect(done.messages.at(-1)?.content).toBe('Deleted WEB-7.');
    // One proposal, the interrupt's, decided in the approver's name: no second one waits anywhere.
    const proposals = await orchestrator.listProposals({ subject: 'ana' });
    expect(proposals).toHaveLength(1);
    expect(proposals[0]).toMatchObject({ id: request.proposal_id, state: 'executed', decidedBy: 'ana' });
  });

  it('resumed rejected, never runs the call and tells the model it was denied', async () => {
    const { graph, config, orchestrator } = await setup([
      { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-8' } }] },
      'I did not delete it.',
    ]);
    await graph.invoke({ messages: [new HumanMessage('Delete WEB-8')] }, config);
    const done = await graph.invoke(new Command({ resume: { approved: false, reason: 'Keep it.' } }), config);
    expect(executed).toEqual([]);
    const result = toolMessages(done.messages).at(-1) as ToolMessage;
    expect(JSON.parse(result.content as string)).toMatchObject({ ok: false, error_type: 'approval_denied' });
    const proposals = await orchestrator.listProposals({ subject: 'ana' });
    expect(proposals.map((proposal) => proposal.state)).toEqual(['rejected']);
  });

  it('matches each resume to its own call when one step needs two approvals, and never repeats a write', async () => {
    const { graph, config, orchestrator } = await setup([
      {
        toolCalls: [
          { toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } },
          { toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Follow-up' } },
          { toolName: 'tracker_delete_issue', input: { key: 'WEB-2' } },
        ],
      },
      'Done what you approved.',
    ]);
    const first = await graph.invoke(
      { messages: [new HumanMessage('Delete WEB-1 and WEB-2, file a follow-up')] },
      config,
    );
    expect(pauses(first)[0]!.value!.args).toEqual({ key: 'WEB-1' });
    const second = await graph.invoke(new Command({ resume: { approved: false } }), config);
    expect(pauses(second)[0]!.value!.args).toEqual({ key: 'WEB-2' });
    const done = await graph.invoke(new Command({ resume: { approved: true } }), config);
    expect(pauses(done)).toEqual([]);
    expect(executed).toEqual([
      { tool: 'tracker_create_issue', input: { project: 'WEB', title: 'Follow-up' } },
      { tool: 'tracker_delete_issue', input: { key: 'WEB-2' } },
    ]);
    const results = toolMessages(done.messages) as ToolMessage[];
    expect(results.map((message) => JSON.parse(message.content as string).ok)).toEqual([false, true, true]);
    const states = (await orchestrator.listProposals({ subject: 'ana' })).map((proposal) => proposal.state);
    expect(states.sort()).toEqual(['executed', 'rejected']);
  });

  it('streams the model’s text and the tool messages with streamMode "messages"', async () => {
    const { graph, config } = await setup([
      {
        text: 'Filing it. ',
        toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken' } }],
      },
      'Filed WEB-1.',
    ]);
    const seen: { node: unknown; message: unknown }[] = [];
    for await (const [message, metadata] of await graph.stream(
      { messages: [new HumanMessage('File a bug in WEB: Broken')] },
      { ...config, streamMode: 'messages' },
    )) {
      seen.push({ node: (metadata as { langgraph_node?: string }).langgraph_node, message });
    }
    const agentText = seen
      .filter((entry) => entry.node === 'agent' && AIMessageChunk.isInstance(entry.message))
      .map((entry) => (entry.message as AIMessageChunk).content)
      .join('');
    expect(agentText).toBe('Filing it. Filed WEB-1.');
    const tool = seen.find((entry) => entry.node === 'tools' && ToolMessage.isInstance(entry.message));
    expect(JSON.parse((tool!.message as ToolMessage).content as string)).toMatchObject({
      ok: true,
      data: { key: 'WEB-1' },
    });
    expect(executed).toHaveLength(1);
  });

  it('starts a new turn (fresh session and trace) at the next user message of the thread', async () => {
    const { graph, config, toolkit } = await setup([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken' } }] },
      'Filed WEB-1.',
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken' } }] },
      'Filed it again.',
    ]);
    await graph.invoke({ messages: [new HumanMessage('File a bug in WEB: Broken')] }, config);
    const firstSession = toolkit.session;
    const state = await graph.invoke({ messages: [new HumanMessage('File the same bug again')] }, config);
    expect(toolkit.session).not.toBe(firstSession);
    expect(toolkit.session.calls).toHaveLength(1);
    expect(executed).toHaveLength(2);
    expect(state.messages.filter((message) => AIMessage.isInstance(message))).toHaveLength(4);
  });

  it('stops after maxSteps model calls', async () => {
    const world = await setupWorld();
    const toolkit = await createPatchbayToolkit({ ...world });
    const model = createScriptedModel(() => ({
      toolCalls: [{ toolName: 'refresh_connector_status', input: {} }],
    }));
    const graph = createPatchbayAgentGraph({
      model: chatModelFromLanguageModel(model),
      toolkit,
      maxSteps: 3,
    });
    await graph.invoke({ messages: [new HumanMessage('Check my connections')] });
    expect(model.calls).toHaveLength(3);
  });
});
