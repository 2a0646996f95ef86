import {
  AIMessage,
  type AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { chatModelFromLanguageModel } from './language-model-chat-model.js';

const weather = {
  type: 'function' as const,
  function: {
    name: 'weather_get',
    description: 'Gets the weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('chatModelFromLanguageModel', () => {
  it('passes system, user, assistant tool calls, tool results and the tools to doGenerate as they are', async () => {
    const scripted = createScriptedModel(['Sunny.']);
    const model = chatModelFromLanguageModel(scripted, { temperature: 0.3 }).bindTools([weather]);
    const reply = await model.invoke([
      new SystemMessage('You help.'),
      new HumanMessage({
        content: [
          { type: 'text', text: '<current_time>x</current_time>' },
          { type: 'text', text: 'Weather?' },
        ],
      }),
      new AIMessage({
        content: 'Checking.',
        tool_calls: [{ id: 't1', name: 'weather_get', args: { city: 'Oslo' } }],
      }),
      new ToolMessage({ content: '{"ok":true,"data":{"sky":"clear"}}', tool_call_id: 't1' }),
      new ToolMessage({ content: 'plain text', tool_call_id: 't2', name: 'other' }),
    ]);
    expect(reply.content).toBe('Sunny.');
    const call = scripted.calls[0]!;
    expect(call.prompt).toEqual([
      { role: 'system', content: 'You help.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '<current_time>x</current_time>' },
          { type: 'text', text: 'Weather?' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'weather_get', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'weather_get',
            output: { type: 'json', value: { ok: true, data: { sky: 'clear' } } },
          },
          {
            type: 'tool-result',
            toolCallId: 't2',
            toolName: 'other',
            output: { type: 'text', value: 'plain text' },
          },
        ],
      },
    ]);
    expect(call.tools).toEqual([
      {
        type: 'function',
        name: 'weather_get',
        description: 'Gets the weather.',
        inputSchema: weather.function.parameters,
      },
    ]);
    expect(call.toolChoice).toEqual({ type: 'auto' });
    expect(call.temperature).toBe(0.3);
  });

  it('turns the model’s tool calls into LangChain tool calls, and arguments that are not JSON into invalid ones', async () => {
    const scripted = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'weather_get', input: { city: 'Oslo' }, toolCallId: 'a' },
          { toolName: 'weather_get', input: '{"city": ', toolCallId: 'b' },
        ],
      },
    ]);
    const reply = await chatModelFromLanguageModel(scripted).bindTools([weather]).invoke('Weather?');
    expect(reply.tool_calls).toEqual([
      { type: 'tool_call', id: 'a', name: 'weather_get', args: { city: 'Oslo' } },
    ]);
    expect(reply.invalid_tool_calls).toMatchObject([{ id: 'b', name: 'weather_get', args: '{"city": ' }]);
    expect(reply.response_metadata.finish_reason).toBe('tool-calls');
  });

  it('streams through doStream: text deltas as chunks, tool calls assembled', async () => {
    const scripted = createScriptedModel([
      { text: 'Looking', toolCalls: [{ toolName: 'weather_get', input: { city: 'Oslo' }, toolCallId: 'c' }] },
    ]);
    const model = chatModelFromLanguageModel(scripted).bindTools([weather]);
    let whole: AIMessageChunk | undefined;
    const texts: unknown[] = [];
    for await (const chunk of await model.stream('Weather?')) {
      texts.push(chunk.content);
      whole = whole === undefined ? chunk : whole.concat(chunk);
    }
    expect(texts).toContain('Looking');
    expect(whole!.content).toBe('Looking');
    expect(whole!.tool_calls).toMatchObject([{ id: 'c', name: 'weather_get', args: { city: 'Oslo' } }]);
    expect(scripted.calls).toHaveLength(1);
  });
});
