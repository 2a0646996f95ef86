import { Agent, Runner, tool } from '@openai/agents';
import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { aiSdkModel } from './ai-sdk-model.js';
import type { LanguageModelV4StreamPart } from './language-model.js';

const runner = new Runner({ tracingDisabled: true });

/** A plain Agents tool: the bridge must work for any tool, not only Patchbay's. */
function weatherTool(runs: string[]) {
  return tool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: {
      type: 'object' as const,
      properties: { city: { type: 'string', description: 'City name' } },
      required: ['city'],
      additionalProperties: true as const,
    },
    strict: false,
    execute: async (input) => {
      runs.push((input as { city: string }).city);
      return JSON.stringify({ ok: true, data: { temperature_c: 21 } });
    },
  });
}

describe('aiSdkModel drives a real Agents run with an AI SDK LanguageModelV4', () => {
  it('passes instructions, every message and the tool definitions to doGenerate, and maps the answer back', async () => {
    const runs: string[] = [];
    const model = createScriptedModel([
      {
        text: 'Let me check.',
        toolCalls: [{ toolName: 'get_weather', input: { city: 'Lisbon' }, toolCallId: 't1' }],
      },
      'It is 21 °C in Lisbon.',
    ]);
    const agent = new Agent({
      name: 'weather',
      instructions: 'You report the weather.',
      tools: [weatherTool(runs)],
      model: aiSdkModel(model),
    });
    const result = await runner.run(agent, 'Weather in Lisbon?');

    expect(result.finalOutput).toBe('It is 21 °C in Lisbon.');
    expect(runs).toEqual(['Lisbon']);
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]!.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Current weather of a city.',
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string', description: 'City name' } },
          required: ['city'],
          additionalProperties: true,
        },
      },
    ]);
    expect(model.prompts[1]).toEqual([
      { role: 'system', content: 'You report the weather.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Lisbon?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'get_weather', input: { city: 'Lisbon' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'get_weather',
            output: { type: 'text', value: '{"ok":true,"data":{"temperature_c":21}}' },
          },
        ],
      },
    ]);
  });

  it('reports the model’s token usage to the run', async () => {
    const base = createScriptedModel(['Hi.']);
    const model = {
      ...base,
      doGenerate: async (options: Parameters<typeof base.doGenerate>[0]) => ({
        ...(await base.doGenerate(options)),
        usage: {
          inputTokens: { total: 120, noCache: 100, cacheRead: 20, cacheWrite: 0 },
          outputTokens: { total: 8, text: 8, reasoning: 0 },
        },
      }),
    };
    const result = await runner.run(
      new Agent({ name: 'a', instructions: 'Be brief.', model: aiSdkModel(model) }),
      'Hello',
    );
    expect(result.finalOutput).toBe('Hi.');
    expect(result.state.usage).toMatchObject({
      requests: 1,
      inputTokens: 120,
      outputTokens: 8,
      totalTokens: 128,
    });
  });

  it('streams through doStream: text deltas as they come, tool calls executed, the final text', async () => {
    const runs: string[] = [];
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Porto' }, toolCallId: 't1' }] },
      'Sunny in Porto.',
    ]);
    let generateCalls = 0;
    const streamingOnly = {
      ...model,
      doGenerate: async (options: Parameters<typeof model.doGenerate>[0]) => {
        generateCalls += 1;
        return model.doGenerate(options);
      },
    };
    const agent = new Agent({
      name: 'weather',
      instructions: 'You report the weather.',
      tools: [weatherTool(runs)],
      model: aiSdkModel(streamingOnly),
    });
    const result = await runner.run(agent, 'Weather in Porto?', { stream: true });
    const deltas: string[] = [];
    for await (const event of result.toTextStream()) deltas.push(event);
    await result.completed;

    expect(deltas.join('')).toBe('Sunny in Porto.');
    expect(result.finalOutput).toBe('Sunny in Porto.');
    expect(runs).toEqual(['Porto']);
    expect(generateCalls).toBe(0);
    expect(model.calls).toHaveLength(2);
    expect(model.prompts[1]!.at(-1)).toMatchObject({ role: 'tool', content: [{ toolCallId: 't1' }] });
  });

  it('fails the run with the model’s own error when the stream reports one', async () => {
    const broken = {
      ...createScriptedModel([]),
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'error', error: new Error('provider overloaded') });
            controller.close();
          },
        }),
      }),
    };
    const result = await runner.run(
      new Agent({ name: 'a', instructions: 'x', model: aiSdkModel(broken) }),
      'Hi',
      {
        stream: true,
      },
    );
    await expect(async () => {
      for await (const _event of result) {
        // drain
      }
      await result.completed;
      if (result.error) throw result.error;
    }).rejects.toThrow('provider overloaded');
  });
});
