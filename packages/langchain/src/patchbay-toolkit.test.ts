import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { createPatchbayToolkit } from './patchbay-toolkit.js';
import { executed, setupWorld } from './test-connectors.js';

async function setup() {
  const world = await setupWorld();
  const toolkit = await createPatchbayToolkit({ ...world, now: () => new Date('2026-11-21T15:00:00Z') });
  return { ...world, toolkit };
}

describe('createPatchbayToolkit', () => {
  it('registers every tool it could offer with the gate’s JSON Schema, as a model provider reads it', async () => {
    const { toolkit } = await setup();
    expect(toolkit.tools.map((tool) => tool.name)).toEqual([
      'chat_post_message',
      'refresh_connector_status',
      'tracker_create_issue',
      'tracker_delete_issue',
    ]);
    const create = toolkit.tools.find((tool) => tool.name === 'tracker_create_issue')!;
    const definition = convertToOpenAITool(create);
    expect(definition.function.description).toBe('Creates an issue in a project.');
    expect(definition.function.parameters).toMatchObject({
      type: 'object',
      required: ['project', 'title'],
      properties: { title: { type: 'string', minLength: 3 } },
    });
  });

  it('prepares a step: fresh context as the first block of the current user message, only runnable tools', async () => {
    const { toolkit, statusSource } = await setup();
    const history = [
      new SystemMessage('Answer in English.'),
      new HumanMessage({ content: 'Earlier question', id: 'u1' }),
      new AIMessage('Earlier answer'),
      new HumanMessage({ content: 'File a bug', id: 'u2' }),
    ];
    const step = await toolkit.prepareStep(history);
    expect(step.activeTools).toEqual([
      'tracker_create_issue',
      'tracker_delete_issue',
      'refresh_connector_status',
    ]);
    expect(step.tools.map((tool) => tool.name)).toEqual(step.activeTools);
    expect(step.messages).toHaveLength(4);
    expect(step.messages[0]!.content).toBe(`${toolkit.systemPrompt}\n\nAnswer in English.`);
    expect(step.messages[1]!.content).toBe('Earlier question');
    const current = step.messages[3]!.content as { type: string; text: string }[];
    expect(current[0]!.text).toBe(step.plan.context);
    expect(current[0]!.text).toContain('<connector_status captured_at="2026-11-21T15:00:00Z">');
    expect(current[1]!.text).toBe('File a bug');
    // The caller's messages are not touched: the block never lands in stored state.
    expect(history[3]!.content).toBe('File a bug');

    statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
    const next = await toolkit.prepareStep(history);
    expect(next.activeTools).toContain('chat_post_message');
    expect(toolkit.steps.map((plan) => plan.index)).toEqual([0, 1]);
  });

  it('works with LangChain’s own fake chat model: binds only the step’s tools', async () => {
    const { toolkit } = await setup();
    const step = await toolkit.prepareStep([new HumanMessage('Hi')]);
    const model = new FakeStreamingChatModel({ responses: [new AIMessage('Hello')] });
    const bound = model.bindTools(step.tools) as unknown as {
      config: { tools: { function: { name: string } }[] };
    };
    expect(bound.config.tools.map((tool) => tool.function.name)).toEqual(step.activeTools);
  });

  it('runs a tool outside a graph through the gate, and leaves an approval waiting instead of pausing', async () => {
    const { toolkit, orchestrator } = await setup();
    await toolkit.prepareStep([new HumanMessage('Delete WEB-1')]);
    const remove = toolkit.tools.find((tool) => tool.name === 'tracker_delete_issue')!;
    const answer = await remove.invoke({
      id: 'call-9',
      name: 'tracker_delete_issue',
      args: { key: 'WEB-1' },
      type: 'tool_call',
    });
    expect(ToolMessage.isInstance(answer)).toBe(true);
    expect(JSON.parse((answer as ToolMessage).content as string)).toMatchObject({
      ok: false,
      error_type: 'approval_required',
    });
    expect(executed).toEqual([]);
    expect((await orchestrator.listProposals({ subject: 'ana' })).map((proposal) => proposal.state)).toEqual([
      'pending',
    ]);
  });
});
