import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from './scripted-model.js';

describe('createScriptedModel', () => {
  it('works as an AI SDK model and records the prompts it received', async () => {
    const model = createScriptedModel(['first', 'second']);
    const first = await generateText({ model, prompt: 'Hello' });
    const second = await generateText({ model, prompt: 'Again' });
    expect([first.text, second.text]).toEqual(['first', 'second']);
    expect(JSON.stringify(model.prompts[1])).toContain('Again');
  });

  it('returns tool calls and can answer as a function of the call', async () => {
    const model = createScriptedModel((call) =>
      call.temperature === 0.9 ? { toolCalls: [{ toolName: 'lookup', input: { q: 'x' } }] } : 'plain',
    );
    const result = await model.doGenerate({ prompt: [], temperature: 0.9 });
    expect(result.content).toEqual([
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'lookup', input: '{"q":"x"}' },
    ]);
    expect(result.finishReason.unified).toBe('tool-calls');
  });

  it('streams the same reply', async () => {
    const model = createScriptedModel(['streamed text']);
    const result = streamText({ model, prompt: 'Hi' });
    expect(await result.text).toBe('streamed text');
  });

  it('throws when called more often than scripted', async () => {
    const model = createScriptedModel(['only']);
    await model.doGenerate({ prompt: [] });
    await expect(model.doGenerate({ prompt: [] })).rejects.toMatchObject({ code: 'script_exhausted' });
  });
});
