import { Agent, type AgentInputItem, type ModelRequest, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, modelResponder, ScriptedModel } from '@openai/agents/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPatchbayAgentTools } from './patchbay-agent-tools.js';
import { executed, setupGate } from './test-fixtures.js';

beforeAll(() => setTracingDisabled(true));

const toolNames = (request: ModelRequest) => request.tools.map((tool) => tool.name).sort();

/** The outputs the model reads back in this request, by call id, parsed from the JSON text. */
function toolOutputs(request: ModelRequest): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const item of request.input as AgentInputItem[]) {
    if (item.type !== 'function_call_result') continue;
    const text =
      typeof item.output === 'string' ? item.output : 'text' in item.output ? item.output.text : '';
    outputs[item.callId] = JSON.parse(text);
  }
  return outputs;
}

async function setup(model: ScriptedModel) {
  const gate = await setupGate();
  const patchbay = await createPatchbayAgentTools({ ...gate, now: () => new Date('2026-11-21T15:00:00Z') });
  const agent = new Agent({
    name: 'assistant',
    instructions: patchbay.instructions,
    tools: patchbay.tools,
    model,
  });
  return { ...gate, patchbay, agent };
}

describe('createPatchbayAgentTools in a real Agents run', () => {
  it('captures status once per model call: a connector connected mid-run is offered on the next call, in tools and instructions', async () => {
    let gate: Awaited<ReturnType<typeof setup>> | undefined;
    const model = new ScriptedModel([
      modelResponder(() => {
        gate!.statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
        return [functionCall('tracker_create_issue', { project: 'WEB', title: 'Broken' }, { callId: 'c1' })];
      }),
      [assistantMessage('Created WEB-1.')],
    ]);
    gate = await setup(model);
    const result = await run(gate.agent, 'File an issue', gate.patchbay.runOptions);

    expect(result.finalOutput).toBe('Created WEB-1.');
    const [first, second] = model.calls.map((call) => call.request);
    expect(toolNames(first!)).toEqual([
      'refresh_connector_status',
      'tracker_create_issue',
      'tracker_delete_issue',
    ]);
    expect(toolNames(second!)).toContain('chat_post_message');
    expect(first!.systemInstructions).toContain(gate.patchbay.session.systemPrompt);
    expect(first!.systemInstructions).toMatch(/"chat":\{[^}]*"status":"not_configured"/);
    expect(second!.systemInstructions).toMatch(/"chat":\{[^}]*"status":"connected"/);
    // One capture per model call, not one per tool asked whether it is enabled.
    expect(gate.patchbay.steps).toHaveLength(2);
    expect(gate.patchbay.steps[1]!.activeTools).toContain('chat_post_message');
  });

  it('never shows the model a tool whose connector is not connected', async () => {
    const model = new ScriptedModel([[assistantMessage('Nothing to do.')]]);
    const { agent, patchbay } = await setup(model);
    await run(agent, 'Hello', patchbay.runOptions);
    expect(patchbay.tools.map((tool) => tool.name)).toContain('chat_post_message');
    expect(toolNames(model.calls[0]!.request)).not.toContain('chat_post_message');
  });

  it('answers a call of a tool not offered now with an envelope, without running it, and the run goes on', async () => {
    const model = new ScriptedModel([
      [functionCall('chat_post_message', { channel: 'general', text: 'hi' }, { callId: 'c1' })],
      [assistantMessage('Chat is not connected yet.')],
    ]);
    const { agent, patchbay } = await setup(model);
    const result = await run(agent, 'Post hi', patchbay.runOptions);

    expect(result.finalOutput).toBe('Chat is not connected yet.');
    expect(executed).toEqual([]);
    expect(toolOutputs(model.calls[1]!.request).c1).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
    });
    expect(patchbay.session.calls).toMatchObject([
      { toolName: 'chat_post_message', sent: false, skipped: 'not_offered' },
    ]);
  });

  it('gives the model the envelope as the tool output', async () => {
    const model = new ScriptedModel([
      [functionCall('tracker_create_issue', { project: 'WEB', title: 'Broken' }, { callId: 'c1' })],
      [functionCall('tracker_create_issue', { project: 'WEB', title: 'x' }, { callId: 'c2' })],
      [assistantMessage('Done.')],
    ]);
    const { agent, patchbay } = await setup(model);
    await run(agent, 'File an issue', patchbay.runOptions);

    expect(toolOutputs(model.calls[1]!.request).c1).toEqual({ ok: true, data: { key: 'WEB-1' } });
    const invalid = toolOutputs(model.calls[2]!.request).c2 as {
      error_type: string;
      retry_guidance?: string;
    };
    expect(invalid.error_type).toBe('invalid_arguments');
    expect(invalid.retry_guidance).toContain('<retry_guidance');
    expect(executed).toHaveLength(1);
  });

  it('pauses a destructive call as an interruption; approved, the resumed run executes it once through the gate', async () => {
    const model = new ScriptedModel([
      [functionCall('tracker_delete_issue', { key: 'WEB-7' }, { callId: 'c1' })],
      [assistantMessage('Deleted WEB-7.')],
    ]);
    const { agent, patchbay, orchestrator } = await setup(model);
    const paused = await run(agent, 'Delete WEB-7', patchbay.runOptions);

    expect(paused.interruptions).toHaveLength(1);
    expect(paused.interruptions[0]!.name).toBe('tracker_delete_issue');
    expect(executed).toEqual([]);
    expect(model.calls).toHaveLength(1);

    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state, patchbay.runOptions);

    expect(resumed.finalOutput).toBe('Deleted WEB-7.');
    expect(executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-7' } }]);
    expect(toolOutputs(model.calls[1]!.request).c1).toEqual({ ok: true, data: { deleted: 'WEB-7' } });
    const proposals = await orchestrator.listProposals({ subject: 'ana' });
    expect(proposals).toMatchObject([{ state: 'executed', decidedBy: 'ana' }]);
  });

  it('runs nothing when the person rejects, and the model reads approval_denied', async () => {
    const model = new ScriptedModel([
      [functionCall('tracker_delete_issue', { key: 'WEB-7' }, { callId: 'c1' })],
      [assistantMessage('I did not delete it.')],
    ]);
    const { agent, patchbay, orchestrator } = await setup(model);
    const paused = await run(agent, 'Delete WEB-7', patchbay.runOptions);
    paused.state.reject(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state, patchbay.runOptions);

    expect(resumed.finalOutput).toBe('I did not delete it.');
    expect(executed).toEqual([]);
    expect(toolOutputs(model.calls[1]!.request).c1).toMatchObject({
      ok: false,
      error_type: 'approval_denied',
    });
    // The gate's proposal was made when the run paused, and the person's no rejected it.
    expect(await orchestrator.listProposals({ subject: 'ana' })).toMatchObject([{ state: 'rejected' }]);
  });

  it('works in a streamed run: one execution, the final text, fresh status per call', async () => {
    const model = new ScriptedModel([
      [functionCall('tracker_create_issue', { project: 'WEB', title: 'Broken' }, { callId: 'c1' })],
      [assistantMessage('Created WEB-1.')],
    ]);
    const { agent, patchbay } = await setup(model);
    const result = await run(agent, 'File an issue', { ...patchbay.runOptions, stream: true });
    const toolOutputsSeen: string[] = [];
    for await (const event of result) {
      if (event.type === 'run_item_stream_event' && event.name === 'tool_output')
        toolOutputsSeen.push(event.name);
    }
    await result.completed;

    expect(result.finalOutput).toBe('Created WEB-1.');
    expect(toolOutputsSeen).toHaveLength(1);
    expect(executed).toHaveLength(1);
    expect(model.calls.every((call) => call.streamed)).toBe(true);
    expect(patchbay.steps).toHaveLength(2);
  });
});
