import { createScriptedModel } from '@patchbay/turn/testing';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createPatchbay } from './create-patchbay.js';
import {
  contextParts,
  createWorld,
  occurrences,
  offeredTools,
  promptText,
  statusOf,
} from './test-fixtures.js';

const now = () => new Date('2026-11-21T15:00:00Z');

describe('createPatchbay with generateText', () => {
  it('captures status fresh before every step: a connector connected mid-run is offered at the next step', async () => {
    const world = await createWorld();
    const patchbay = createPatchbay({ ...world, now });
    const turn = await patchbay.turn();
    const model = createScriptedModel([
      () => {
        // The user connects chat while the agent works on the first step.
        world.statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
        return {
          toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }],
        };
      },
      { toolCalls: [{ toolName: 'chat_post_message', input: { channel: 'eng', text: 'Filed WEB-1' } }] },
      'Filed WEB-1 and told #eng.',
    ]);

    const result = await generateText({
      model,
      messages: [{ role: 'user', content: 'File the login bug and tell #eng.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });

    expect(result.text).toBe('Filed WEB-1 and told #eng.');
    expect(offeredTools(model.calls[0]!).sort()).toEqual([
      'refresh_connector_status',
      'tracker_create_issue',
      'tracker_delete_issue',
    ]);
    expect(offeredTools(model.calls[1]!)).toContain('chat_post_message');
    expect(statusOf(contextParts(model.calls[0]!)[0]!.text).chat?.status).toBe('not_configured');
    expect(statusOf(contextParts(model.calls[1]!)[0]!.text).chat?.status).toBe('connected');
    expect(world.executed.map((call) => call.tool)).toEqual(['tracker_create_issue', 'chat_post_message']);
    expect(turn.steps.map((step) => step.activeTools.includes('chat_post_message'))).toEqual([
      false,
      true,
      true,
    ]);
    expect(turn.calls.map((call) => [call.toolName, call.sent])).toEqual([
      ['tracker_create_issue', true],
      ['chat_post_message', true],
    ]);
  });

  it('sends the static system prompt as instructions and keeps one context block, at the tail, across steps', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] },
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }] },
      'Done.',
    ]);
    const history: ModelMessage[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
    ];

    await generateText({
      model,
      messages: [...history, { role: 'user', content: 'File the login bug in WEB.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });

    expect(model.calls).toHaveLength(3);
    for (const call of model.calls) {
      expect(call.prompt[0]).toMatchObject({ role: 'system', content: turn.session.systemPrompt });
      const text = promptText(call);
      expect(occurrences(text, '<connector_status captured_at=')).toBe(1);
      expect(occurrences(text, '<current_time>2026')).toBe(1);
      // The block sits in the current user message, before what the user wrote; the history before it is untouched.
      const [block] = contextParts(call);
      expect(block).toMatchObject({ role: 'user', index: 3 });
      expect(call.prompt[3]!.content).toEqual([
        { type: 'text', text: block!.text },
        { type: 'text', text: 'File the login bug in WEB.' },
      ]);
      expect(call.prompt.slice(1, 3)).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello! How can I help?' }] },
      ]);
    }
    // Later steps append the tool exchange after the user message.
    expect(model.calls[2]!.prompt.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
  });

  it('places the block right after the system prompt, acknowledged, with layout after-system, once per step', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now, layout: 'after-system' }).turn();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] },
      'Done.',
    ]);

    await generateText({
      model,
      messages: [{ role: 'user', content: 'What is connected?' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });

    for (const call of model.calls) {
      expect(contextParts(call)).toEqual([expect.objectContaining({ role: 'user', index: 1 })]);
      expect(call.prompt[2]).toMatchObject({ role: 'assistant' });
      expect(occurrences(promptText(call), 'Understood. I will go by this status and time.')).toBe(1);
      expect(call.prompt[3]).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'What is connected?' }],
      });
    }
  });

  it('marks the system prompt as the cache breakpoint for an Anthropic model on a first message', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = createScriptedModel(
      [{ toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] }, 'Done.'],
      {
        provider: 'anthropic.messages',
      },
    );

    await generateText({ model, prompt: 'What is connected?', stopWhen: stepCountIs(5), ...turn.settings });

    for (const call of model.calls) {
      expect(call.prompt[0]).toMatchObject({
        role: 'system',
        content: turn.session.systemPrompt,
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      });
      expect(contextParts(call)).toHaveLength(1);
    }
  });

  it('answers a call of a tool not offered now without running it', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'chat_post_message', input: { channel: 'eng', text: 'hi' }, toolCallId: 'c1' },
        ],
      },
      'Chat is not connected; connect it first.',
    ]);

    const result = await generateText({
      model,
      messages: [{ role: 'user', content: 'Say hi in #eng.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });

    expect(world.executed).toEqual([]);
    expect(result.steps[0]!.toolResults).toEqual([]);
    // The model reads an answer to its call at the next step and replies.
    const answer = model.calls[1]!.prompt.find((message) => message.role === 'tool');
    expect(answer?.content).toEqual([expect.objectContaining({ type: 'tool-result', toolCallId: 'c1' })]);
    expect(result.text).toBe('Chat is not connected; connect it first.');
  });

  it('gives the model the envelope with retry guidance as the tool result when a call can be fixed', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'x' }, toolCallId: 'c1' },
        ],
      },
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }] },
      'Filed WEB-1.',
    ]);

    const result = await generateText({
      model,
      messages: [{ role: 'user', content: 'File "Broken login" in WEB.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });

    const firstResult = result.steps[0]!.toolResults[0]!.output as Record<string, unknown>;
    expect(firstResult).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(firstResult.retry_guidance).toEqual(expect.stringContaining('<retry_guidance'));
    const seen = model.calls[1]!.prompt.find((message) => message.role === 'tool');
    expect(seen?.content).toEqual([
      expect.objectContaining({
        toolCallId: 'c1',
        output: {
          type: 'json',
          value: expect.objectContaining({
            error_type: 'invalid_arguments',
            retry_guidance: expect.any(String),
          }),
        },
      }),
    ]);
    expect(world.executed).toEqual([
      { tool: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } },
    ]);
  });

  it('offers no tools and has the model ask the user once attempts run out', async () => {
    const world = await createWorld();
    const turn = await createPatchbay({ ...world, now }).turn();
    const bad = (title: string) => ({
      toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title } }],
    });
    const model = createScriptedModel([bad('a'), bad('b'), bad('c'), 'What should the issue be called?']);

    const result = await generateText({
      model,
      messages: [{ role: 'user', content: 'File an issue in WEB.' }],
      stopWhen: stepCountIs(8),
      ...turn.settings,
    });

    expect(result.text).toBe('What should the issue be called?');
    expect(model.calls[3]!.tools ?? []).toEqual([]);
    expect(promptText(model.calls[3]!)).toContain('<ask_user>');
    expect(occurrences(promptText(model.calls[3]!), '<connector_status captured_at=')).toBe(1);
    expect(turn.steps.at(-1)?.askUser).toBeDefined();
    expect(world.executed).toEqual([]);
  });

  it("answers the turn's calls without running them once the turn's signal is aborted", async () => {
    const world = await createWorld();
    const controller = new AbortController();
    const turn = await createPatchbay({ ...world, now }).turn({ signal: controller.signal });
    const model = createScriptedModel([
      () => {
        controller.abort();
        return {
          toolCalls: [{ toolName: 'tracker_create_issue', input: { project: 'WEB', title: 'Broken login' } }],
        };
      },
      'Stopped.',
    ]);

    await generateText({
      model,
      messages: [{ role: 'user', content: 'File it.' }],
      stopWhen: stepCountIs(5),
      ...turn.settings,
    });

    expect(world.executed).toEqual([]);
    expect(turn.calls).toEqual([expect.objectContaining({ toolName: 'tracker_create_issue', sent: false })]);
  });

  it('sends nothing when the generateText run itself is aborted', async () => {
    const world = await createWorld();
    const controller = new AbortController();
    const turn = await createPatchbay({ ...world, now }).turn();
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        controller.abort();
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'c1',
              toolName: 'tracker_create_issue',
              input: JSON.stringify({ project: 'WEB', title: 'Broken login' }),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });

    await expect(
      generateText({
        model,
        messages: [{ role: 'user', content: 'File it.' }],
        abortSignal: controller.signal,
        stopWhen: stepCountIs(5),
        ...turn.settings,
      }),
    ).rejects.toThrow();
    expect(world.executed).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('starts a new session for every turn', async () => {
    const world = await createWorld();
    const patchbay = createPatchbay({ ...world, now });
    const [first, second] = [await patchbay.turn(), await patchbay.turn()];
    expect(first.session.turnId).not.toBe(second.session.turnId);
    expect(first.settings.tools).not.toBe(second.settings.tools);
  });
});
