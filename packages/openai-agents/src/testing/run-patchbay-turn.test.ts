import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { executed, setupGate } from '../test-fixtures.js';
import { runPatchbayTurn } from './run-patchbay-turn.js';

const systemOf = (prompt: readonly { role: string; content: unknown }[]) =>
  prompt.find((message) => message.role === 'system')?.content as string;

describe('runPatchbayTurn: one user turn through the Agents loop', () => {
  it('shows the model the status block and only the runnable tools, runs the call through the gate, and replies', async () => {
    const gate = await setupGate();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }] },
      'Filed WEB-1.',
    ]);
    const run = await runPatchbayTurn({ ...gate, model, message: 'File "Broken login" in WEB' });

    expect(run.reply).toBe('Filed WEB-1.');
    expect(run.pendingApprovals).toEqual([]);
    expect(run.calls).toMatchObject([
      { toolName: 'tracker_create_issue', sent: true, envelope: { ok: true, data: { key: 'WEB-1' } } },
    ]);
    expect(executed).toHaveLength(1);
    expect(run.steps).toHaveLength(2);
    const firstCall = model.calls[0]!;
    expect(systemOf(firstCall.prompt)).toContain('<connector_status captured_at=');
    expect(firstCall.prompt.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'File "Broken login" in WEB' }],
    });
    expect(firstCall.tools?.map((tool) => tool.name).sort()).toEqual([
      'refresh_connector_status',
      'tracker_create_issue',
      'tracker_delete_issue',
    ]);
    expect(firstCall.tools?.find((tool) => tool.name === 'tracker_create_issue')).toMatchObject({
      description: 'Creates an issue in a project.',
      inputSchema: { type: 'object', properties: { project: { type: 'string' }, title: { type: 'string' } } },
    });
    const toolResult = model.prompts[1]!.at(-1) as { content: { output: { type: string; value: string } }[] };
    expect(JSON.parse(toolResult.content[0]!.output.value)).toEqual({ ok: true, data: { key: 'WEB-1' } });
  });

  it('asks the person at the interruption; approved, the call runs once through the gate', async () => {
    const gate = await setupGate();
    const asked: { toolName: string; input: unknown }[] = [];
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-9' } }] },
      'Deleted WEB-9.',
    ]);
    const run = await runPatchbayTurn({
      ...gate,
      model,
      message: 'Delete WEB-9',
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });

    expect(asked).toEqual([{ toolName: 'tracker_delete_issue', input: { key: 'WEB-9' } }]);
    expect(run.reply).toBe('Deleted WEB-9.');
    expect(executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-9' } }]);
    // The proposal made at the pause, then the approved call that ran it.
    expect(run.calls.map((call) => (call.envelope.ok ? 'ok' : call.envelope.error_type))).toEqual([
      'approval_required',
      'ok',
    ]);
    expect(await gate.orchestrator.listProposals({ subject: 'ana' })).toMatchObject([{ state: 'executed' }]);
  });

  it('rejected, nothing runs and the model reads approval_denied', async () => {
    const gate = await setupGate();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-9' } }] },
      'Left WEB-9 alone.',
    ]);
    const run = await runPatchbayTurn({ ...gate, model, message: 'Delete WEB-9', approve: () => false });

    expect(run.reply).toBe('Left WEB-9 alone.');
    expect(executed).toEqual([]);
    expect(run.calls.map((call) => (call.envelope.ok ? 'ok' : call.envelope.error_type))).toEqual([
      'approval_required',
      'approval_denied',
    ]);
    expect(await gate.orchestrator.listProposals({ subject: 'ana' })).toMatchObject([{ state: 'rejected' }]);
    const toolResult = model.prompts[1]!.at(-1) as { content: { output: { value: string } }[] };
    expect(JSON.parse(toolResult.content[0]!.output.value)).toMatchObject({ error_type: 'approval_denied' });
  });

  it('without a person, stops pending: the approval is reported and nothing runs', async () => {
    const gate = await setupGate();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-9' } }] },
    ]);
    const run = await runPatchbayTurn({ ...gate, model, message: 'Delete WEB-9' });

    expect(run.pendingApprovals).toEqual([{ toolName: 'tracker_delete_issue', input: { key: 'WEB-9' } }]);
    expect(run.reply).toBe('');
    expect(executed).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });

  it('answers a call of a tool not offered without running it, and stops at maxSteps', async () => {
    const gate = await setupGate();
    const model = createScriptedModel(() => ({
      toolCalls: [{ toolName: 'chat_post_message', input: { channel: 'general', text: 'hi' } }],
    }));
    const run = await runPatchbayTurn({ ...gate, model, message: 'Post hi', maxSteps: 2 });

    expect(model.calls).toHaveLength(2);
    expect(run.reply).toBe('');
    expect(executed).toEqual([]);
    expect(run.calls[0]).toMatchObject({
      toolName: 'chat_post_message',
      arguments: { channel: 'general', text: 'hi' },
      sent: false,
      skipped: 'not_offered',
    });
  });
});
