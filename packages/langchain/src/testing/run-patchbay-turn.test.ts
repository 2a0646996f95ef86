import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { executed, setupWorld } from '../test-connectors.js';
import { runPatchbayTurn } from './run-patchbay-turn.js';

const deleteThenReply = () =>
  createScriptedModel([
    { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-3' } }] },
    (call) => {
      const tool = call.prompt.find((message) => message.role === 'tool');
      return JSON.stringify(tool?.content[0]);
    },
  ]);

describe('runPatchbayTurn', () => {
  it('runs one turn through LangGraph and reports the reply, the calls and every step’s plan', async () => {
    const world = await setupWorld();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken' } }] },
      'Filed WEB-1.',
    ]);
    const run = await runPatchbayTurn({
      ...world,
      model,
      message: 'File a bug in WEB: Broken',
      identity: 'You are Pat.',
    });
    expect(run.reply).toBe('Filed WEB-1.');
    expect(run.calls.map((call) => [call.toolName, call.envelope.ok])).toEqual([
      ['tracker_create_issue', true],
    ]);
    expect(run.steps.map((step) => step.index)).toEqual([0, 1]);
    expect(run.pendingApprovals).toEqual([]);
    expect(executed).toHaveLength(1);
    // What the reference agent reads: the system prompt, the status block, the user's text, the tools.
    const first = model.calls[0]!;
    expect(first.prompt[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('You are Pat.'),
    });
    const user = first.prompt.find((message) => message.role === 'user')!.content as { text: string }[];
    expect(user.map((part) => part.text)).toEqual([run.steps[0]!.context, 'File a bug in WEB: Broken']);
    expect(first.tools?.map((tool) => tool.name)).toEqual(run.steps[0]!.activeTools);
  });

  it('approved at the framework’s approval step: the call runs once, and the model reads its result', async () => {
    const world = await setupWorld();
    const asked: unknown[] = [];
    const run = await runPatchbayTurn({
      ...world,
      model: deleteThenReply(),
      message: 'Delete WEB-3',
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });
    expect(asked).toEqual([{ toolName: 'tracker_delete_issue', input: { key: 'WEB-3' } }]);
    expect(executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-3' } }]);
    expect(JSON.parse(run.reply)).toMatchObject({ output: { type: 'json', value: { ok: true } } });
    expect(run.pendingApprovals).toEqual([]);
    // The trace: the gate's approval_required, then the decided proposal under the same call.
    expect(run.calls.map((call) => [call.toolName, call.toolCallId, call.envelope.ok])).toEqual([
      ['tracker_delete_issue', 'call-1', false],
      ['tracker_delete_issue', 'call-1', true],
    ]);
  });

  it('rejected: never runs, and the model reads approval_denied', async () => {
    const world = await setupWorld();
    const run = await runPatchbayTurn({
      ...world,
      model: deleteThenReply(),
      message: 'Delete WEB-3',
      approve: () => false,
    });
    expect(executed).toEqual([]);
    expect(JSON.parse(run.reply)).toMatchObject({ output: { value: { error_type: 'approval_denied' } } });
  });

  it('without a person: stops at the pause with the approval pending, nothing run', async () => {
    const world = await setupWorld();
    const model = deleteThenReply();
    const run = await runPatchbayTurn({ ...world, model, message: 'Delete WEB-3' });
    expect(run.pendingApprovals).toEqual([{ toolName: 'tracker_delete_issue', input: { key: 'WEB-3' } }]);
    expect(executed).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(run.calls[0]!.envelope).toMatchObject({ ok: false, error_type: 'approval_required' });
  });

  it('stops after maxSteps model calls', async () => {
    const world = await setupWorld();
    const model = createScriptedModel(() => ({
      toolCalls: [{ toolName: 'refresh_connector_status', input: {} }],
    }));
    const run = await runPatchbayTurn({ ...world, model, message: 'Check my connections', maxSteps: 2 });
    expect(model.calls).toHaveLength(2);
    expect(run.steps).toHaveLength(2);
  });
});
