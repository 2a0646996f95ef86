import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { contextParts, createWorld, offeredTools, statusOf } from '../test-fixtures.js';
import { runPatchbayTurn } from './index.js';

const deleteThenReply = () =>
  createScriptedModel([
    { toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } }] },
    (call) => {
      const answered = call.prompt.some((message) => message.role === 'tool');
      return answered ? 'Handled the delete.' : 'No answer yet.';
    },
  ]);

describe('runPatchbayTurn', () => {
  it('runs one turn through generateText and reports the reply, the calls and every step plan', async () => {
    const world = await createWorld();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }] },
      'Filed WEB-1.',
    ]);

    const run = await runPatchbayTurn({
      ...world,
      model,
      message: 'File the login bug in WEB.',
      identity: 'You are Tess.',
    });

    expect(run.reply).toBe('Filed WEB-1.');
    expect(run.calls).toEqual([expect.objectContaining({ toolName: 'tracker_create_issue', sent: true })]);
    expect(run.steps.map((step) => step.index)).toEqual([0, 1]);
    expect(run.pendingApprovals).toEqual([]);
    expect(world.executed).toHaveLength(1);
  });

  it('gives the model what a rule-based agent reads: system prompt, status block, user text and tool schemas', async () => {
    const world = await createWorld();
    const model = createScriptedModel(['Hello.']);

    await runPatchbayTurn({ ...world, model, message: 'What can you do?', identity: 'You are Tess.' });

    const [call] = model.calls;
    expect(call!.prompt[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('You are Tess.'),
    });
    expect(statusOf(contextParts(call!)[0]!.text).tracker?.status).toBe('connected');
    expect(JSON.stringify(call!.prompt.at(-1))).toContain('What can you do?');
    expect(offeredTools(call!).sort()).toEqual([
      'refresh_connector_status',
      'tracker_create_issue',
      'tracker_delete_issue',
    ]);
    const create = call!.tools?.find((tool) => tool.name === 'tracker_create_issue');
    expect(create).toMatchObject({
      type: 'function',
      description: 'Creates an issue in a project.',
      inputSchema: { type: 'object', properties: { project: expect.any(Object), title: expect.any(Object) } },
    });
  });

  it('resumes after an approval with the decision: approved runs once through the gate', async () => {
    const world = await createWorld();
    const asked: unknown[] = [];

    const run = await runPatchbayTurn({
      ...world,
      model: deleteThenReply(),
      message: 'Delete WEB-1.',
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });

    expect(asked).toEqual([{ toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } }]);
    expect(world.executed).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-1' } }]);
    // The pause (the gate's proposal), then the approved run of that proposal.
    expect(run.calls.map((call) => [call.toolName, call.envelope.ok])).toEqual([
      ['tracker_delete_issue', false],
      ['tracker_delete_issue', true],
    ]);
    expect(run.reply).toBe('Handled the delete.');
    expect(run.pendingApprovals).toEqual([]);
  });

  it('resumes after a rejection: the call never runs and the proposal is rejected', async () => {
    const world = await createWorld();

    const run = await runPatchbayTurn({
      ...world,
      model: deleteThenReply(),
      message: 'Delete WEB-1.',
      approve: () => false,
    });

    expect(world.executed).toEqual([]);
    expect(run.calls.at(-1)).toMatchObject({ envelope: { ok: false, error_type: 'approval_denied' } });
    const proposals = await world.orchestrator.listProposals({ subject: 'ana' });
    expect(proposals.map((proposal) => proposal.state)).toEqual(['rejected']);
    expect(run.reply).toBe('Handled the delete.');
    expect(run.pendingApprovals).toEqual([]);
  });

  it('stops pending when nobody decides', async () => {
    const world = await createWorld();

    const run = await runPatchbayTurn({ ...world, model: deleteThenReply(), message: 'Delete WEB-1.' });

    expect(run.pendingApprovals).toEqual([{ toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } }]);
    expect(world.executed).toEqual([]);
    expect(run.steps).toHaveLength(1);
  });

  it('asks the model at most maxSteps times', async () => {
    const world = await createWorld();
    let counter = 0;
    const model = createScriptedModel(() => {
      counter += 1;
      return {
        toolCalls: [
          { toolName: 'tracker_create_issue', input: { project: 'WEB', title: `Issue ${counter}` } },
        ],
      };
    });

    await runPatchbayTurn({ ...world, model, message: 'File issues forever.', maxSteps: 3 });

    expect(model.calls).toHaveLength(3);
    expect(world.executed).toHaveLength(3);
  });

  it('hands the framework the earlier conversation and a complete system prompt when given', async () => {
    const world = await createWorld();
    const model = createScriptedModel(['Sure.']);

    await runPatchbayTurn({
      ...world,
      model,
      message: 'And now?',
      systemPrompt: 'You are the release bot.',
      history: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
      ],
    });

    const [call] = model.calls;
    expect(call!.prompt[0]).toEqual({ role: 'system', content: 'You are the release bot.' });
    expect(call!.prompt.slice(1, 3)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
    ]);
    expect(contextParts(call!)).toEqual([expect.objectContaining({ index: 3 })]);
  });

  it('returns instead of throwing when the turn is aborted, with nothing sent', async () => {
    const world = await createWorld();
    const controller = new AbortController();
    const model = createScriptedModel([
      () => {
        controller.abort();
        return {
          toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }],
        };
      },
      'Never reached.',
    ]);

    const run = await runPatchbayTurn({ ...world, model, message: 'File it.', signal: controller.signal });

    expect(run.reply).toBe('');
    expect(world.executed).toEqual([]);
    expect(run.steps).toHaveLength(1);
  });
});
