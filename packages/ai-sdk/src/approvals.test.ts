import { createScriptedModel } from '@patchbay/turn/testing';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { createPatchbay } from './create-patchbay.js';
import { createWorld } from './test-fixtures.js';

const now = () => new Date('2026-11-21T15:00:00Z');

/** Runs until the SDK pauses on the delete's approval request, the way a chat app's first request does. */
async function pausedOnDelete(options: { toolApprovalSecret?: string } = {}) {
  const world = await createWorld();
  const patchbay = createPatchbay({ ...world, now, ...options });
  const model = createScriptedModel([
    { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-1' }, toolCallId: 'c1' }] },
    (call) => {
      const result = call.prompt.find((message) => message.role === 'tool');
      return `After the approval step: ${JSON.stringify(result?.content)}`;
    },
  ]);
  const messages: ModelMessage[] = [{ role: 'user', content: 'Delete WEB-1.' }];
  const first = await patchbay.turn();
  const paused = await generateText({ model, messages, stopWhen: stepCountIs(5), ...first.settings });
  const request = paused.content.find((part) => part.type === 'tool-approval-request');
  if (request?.type !== 'tool-approval-request') throw new Error('the SDK did not ask for approval');

  /** The next request of the chat: the history with the person's answer, through a new turn. */
  async function resume(approved: boolean) {
    const second = await patchbay.turn();
    const result = await generateText({
      model,
      messages: [
        ...messages,
        ...paused.response.messages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved }],
        },
      ],
      stopWhen: stepCountIs(5),
      ...second.settings,
    });
    return { result, turn: second };
  }
  return { world, first, paused, request, resume };
}

describe('approvals through the SDK tool approval', () => {
  it('pauses on a call the gate wants approved: the gate holds a pending proposal, the connector sees nothing', async () => {
    const { world, first, paused, request } = await pausedOnDelete();
    expect(request.toolCall).toMatchObject({ toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } });
    expect(paused.finishReason).toBe('tool-calls');
    expect(world.executed).toEqual([]);
    const proposals = await world.orchestrator.listProposals({ subject: 'ana' });
    expect(proposals).toEqual([expect.objectContaining({ state: 'pending', tool: 'tracker_delete_issue' })]);
    // The person is shown the gate's own words, which name the proposal.
    expect(request.reason).toContain(proposals[0]!.id);
    expect(first.calls).toEqual([
      expect.objectContaining({
        toolName: 'tracker_delete_issue',
        envelope: expect.objectContaining({ error_type: 'approval_required' }),
      }),
    ]);
  });

  it("runs an approved call exactly once, as the gate's proposal, in the name of the person", async () => {
    const { world, resume } = await pausedOnDelete();
    const [pending] = await world.orchestrator.listProposals({ subject: 'ana' });
    const { result, turn } = await resume(true);

    expect(world.executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-1' } }]);
    const proposals = await world.orchestrator.listProposals({ subject: 'ana' });
    expect(proposals).toEqual([
      expect.objectContaining({ id: pending!.id, state: 'executed', decidedBy: 'ana' }),
    ]);
    expect(turn.calls).toEqual([
      expect.objectContaining({ toolName: 'tracker_delete_issue', toolCallId: 'c1', sent: true }),
    ]);
    expect(turn.calls[0]!.envelope).toMatchObject({ ok: true, data: { deleted: 'WEB-1' } });
    expect(result.text).toContain('"deleted":"WEB-1"');
  });

  it("never runs a declined call, and rejects the gate's proposal in the person's name", async () => {
    const { world, resume } = await pausedOnDelete();
    const { result, turn } = await resume(false);

    expect(world.executed).toEqual([]);
    const proposals = await world.orchestrator.listProposals({ subject: 'ana' });
    expect(proposals).toEqual([expect.objectContaining({ state: 'rejected', decidedBy: 'ana' })]);
    // The rejection is in the trace (recorded by the session under its proposal).
    expect(turn.calls.at(-1)).toMatchObject({ envelope: { ok: false, error_type: 'approval_denied' } });
    expect(result.text).toContain('execution-denied');
  });

  it('answers a call the gate turns down before any proposal without asking the person, and asks the gate once', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 42 } }] },
      'The key must be text.',
    ]);

    const result = await generateText({
      model,
      messages: [{ role: 'user', content: 'Delete issue 42.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });

    expect(result.steps[0]!.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
    });
    expect(turn.calls).toHaveLength(1);
    expect(await world.orchestrator.listProposals({ subject: 'ana' })).toEqual([]);
    expect(world.executed).toEqual([]);
  });

  it('signs approval requests with the secret, and the signed approval still runs once', async () => {
    const { world, request, resume } = await pausedOnDelete({ toolApprovalSecret: 'approval-secret-1' });
    expect(request.signature).toEqual(expect.any(String));
    await resume(true);
    expect(world.executed).toHaveLength(1);
  });

  it('checks the approved call against status captured at resume time', async () => {
    const { world, resume } = await pausedOnDelete();
    world.statusSource.disconnect('ana', 'tracker');
    const { turn } = await resume(true);

    expect(world.executed).toEqual([]);
    expect(turn.calls).toEqual([expect.objectContaining({ sent: false, skipped: 'not_offered' })]);
    expect(turn.calls[0]!.envelope).toMatchObject({ ok: false, error_type: 'connector_not_configured' });
  });

  it('leaves the decision to the gate when the SDK is told the call needs no person, or approves it by itself', async () => {
    for (const status of ['not-applicable', 'approved'] as const) {
      const world = await createWorld();
      const turn = await createPatchbay({ ...world, now }).turn();
      const model = createScriptedModel([
        { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } }] },
        'Waiting for approval.',
      ]);

      const result = await generateText({
        model,
        messages: [{ role: 'user', content: 'Delete WEB-1.' }],
        stopWhen: stepCountIs(5),
        ...turn.settings,
        toolApproval: () => status,
      });

      expect(world.executed, status).toEqual([]);
      expect(result.steps[0]!.toolResults[0]!.output, status).toMatchObject({
        ok: false,
        error_type: 'approval_required',
        proposal_id: expect.any(String),
      });
      const proposals = await world.orchestrator.listProposals({ subject: 'ana' });
      expect(
        proposals.map((proposal) => proposal.state),
        status,
      ).toEqual(['pending']);
    }
  });

  it('asks for no approval for calls the gate runs without one', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }] },
      'Filed.',
    ]);
    const result = await generateText({
      model,
      messages: [{ role: 'user', content: 'File it.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(world.executed).toHaveLength(1);
  });
});
