import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callModel } from './model-call.js';
import { createScriptedModel } from './testing/scripted-model.js';

const request = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
const never = () => new Promise<never>(() => {});

afterEach(() => {
  vi.useRealTimers();
});

describe('callModel', () => {
  it('returns the answer of a model that answers in time', async () => {
    const model = createScriptedModel(['hello']);
    const outcome = await callModel(model, request, { signal: undefined, timeoutMs: 120_000 });
    expect(outcome.kind).toBe('answered');
    expect(outcome.kind === 'answered' && outcome.result.content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('does not call the model when the signal has already fired', async () => {
    const model = createScriptedModel(['hello']);
    const outcome = await callModel(model, request, { signal: AbortSignal.abort(), timeoutMs: 1000 });
    expect(outcome).toEqual({ kind: 'aborted' });
    expect(model.calls).toHaveLength(0);
  });

  it('abandons a hung model that ignores its signal when the turn is cancelled', async () => {
    const controller = new AbortController();
    const model = createScriptedModel(() => never());
    const pending = callModel(model, request, { signal: controller.signal, timeoutMs: 120_000 });
    await vi.waitFor(() => expect(model.calls).toHaveLength(1));
    controller.abort();
    expect(await pending).toEqual({ kind: 'aborted' });
    expect(model.calls[0]!.abortSignal?.aborted).toBe(true);
  });

  it('gives up on a model at its deadline, default-sized, without waiting in real time', async () => {
    vi.useFakeTimers();
    const model = createScriptedModel(() => never());
    const pending = callModel(model, request, { signal: undefined, timeoutMs: 120_000 });
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ kind: 'timed_out' });
    expect(model.calls[0]!.abortSignal!.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('reports a model that honours its signal (and rejects) as stopped, not as an error', async () => {
    const controller = new AbortController();
    const honest = {
      ...createScriptedModel([]),
      doGenerate: (call: LanguageModelV4CallOptions) =>
        new Promise<never>((_resolve, reject) => {
          call.abortSignal?.addEventListener('abort', () => reject(call.abortSignal?.reason), { once: true });
        }),
    };
    const pending = callModel(honest, request, { signal: controller.signal, timeoutMs: 120_000 });
    controller.abort(new Error('user left'));
    expect(await pending).toEqual({ kind: 'aborted' });
  });

  it('rethrows a model error that has nothing to do with stopping', async () => {
    const model = createScriptedModel([]);
    await expect(callModel(model, request, { signal: undefined, timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'script_exhausted',
    });
  });
});
