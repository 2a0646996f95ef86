import { createScriptedModel } from '@patchbay/turn/testing';
import { type ModelMessage, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { createPatchbay, type PatchbayTurn } from './create-patchbay.js';
import { contextParts, createWorld, offeredTools, statusOf } from './test-fixtures.js';

const now = () => new Date('2026-11-21T15:00:00Z');

describe('createPatchbay with streamText', () => {
  it('streams the reply while every step gets fresh status and only runnable tools', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = createScriptedModel([
      () => {
        world.statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
        return { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] };
      },
      { toolCalls: [{ toolName: 'chat_post_message', input: { channel: 'eng', text: 'Deploy done' } }] },
      'Posted to #eng.',
    ]);

    const result = streamText({
      model,
      messages: [{ role: 'user', content: 'Tell #eng the deploy is done.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });
    const kinds: string[] = [];
    for await (const part of result.fullStream) kinds.push(part.type);

    expect(await result.text).toBe('Posted to #eng.');
    expect(kinds).toEqual(expect.arrayContaining(['tool-call', 'tool-result', 'text-delta', 'finish']));
    expect(offeredTools(model.calls[0]!)).not.toContain('chat_post_message');
    expect(offeredTools(model.calls[1]!)).toContain('chat_post_message');
    expect(model.calls.map((call) => contextParts(call).length)).toEqual([1, 1, 1]);
    expect(statusOf(contextParts(model.calls[1]!)[0]!.text).chat?.status).toBe('connected');
    expect(world.executed).toEqual([
      { tool: 'chat_post_message', input: { channel: 'eng', text: 'Deploy done' } },
    ]);
  });

  it('streams the approval request, and the resumed stream runs the approved call once', async () => {
    const world = await createWorld();
    const patchbay = createPatchbay({ ...world, now });
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-7' }, toolCallId: 'c1' }] },
      'Deleted WEB-7.',
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Delete WEB-7.' }];

    const paused = streamText({
      model,
      messages,
      stopWhen: stepCountIs(5),
      ...(await patchbay.turn()).settings,
    });
    let approvalId: string | undefined;
    for await (const part of paused.fullStream) {
      if (part.type === 'tool-approval-request') approvalId = part.approvalId;
    }
    expect(approvalId).toEqual(expect.any(String));
    expect(world.executed).toEqual([]);

    const resumedTurn = await patchbay.turn();
    const resumed = streamText({
      model,
      messages: [
        ...messages,
        ...(await paused.response).messages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: approvalId!, approved: true }],
        },
      ],
      stopWhen: stepCountIs(5),
      ...resumedTurn.settings,
    });

    expect(await resumed.text).toBe('Deleted WEB-7.');
    expect(world.executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-7' } }]);
    expect(resumedTurn.calls[0]!.envelope).toMatchObject({ ok: true, data: { deleted: 'WEB-7' } });
  });
});

describe('createPatchbay with ToolLoopAgent', () => {
  it('starts a new turn for every agent call through prepareCall', async () => {
    const world = await createWorld();
    const turns: PatchbayTurn[] = [];
    const patchbay = createPatchbay({ ...world, now, onTurn: (turn) => turns.push(turn) });
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }] },
      'Filed WEB-1.',
      'Nothing else to do.',
    ]);
    const agent = new ToolLoopAgent({ model, prepareCall: patchbay.prepareCall });

    const first = await agent.generate({ prompt: 'File the login bug in WEB.' });
    const second = await agent.generate({ prompt: 'Anything else?' });

    expect([first.text, second.text]).toEqual(['Filed WEB-1.', 'Nothing else to do.']);
    expect(turns).toHaveLength(2);
    expect(turns[0]!.session.turnId).not.toBe(turns[1]!.session.turnId);
    expect(turns[0]!.calls.map((call) => call.toolName)).toEqual(['tracker_create_issue']);
    expect(turns[1]!.calls).toEqual([]);
    expect(model.calls[0]!.prompt[0]).toMatchObject({
      role: 'system',
      content: turns[0]!.session.systemPrompt,
    });
    expect(offeredTools(model.calls[0]!)).toContain('tracker_create_issue');
    expect(model.calls.map((call) => contextParts(call).length)).toEqual([1, 1, 1]);
    expect(world.executed).toHaveLength(1);
  });
});
