import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
} from '@ai-sdk/provider';

/** How one model call ended: its answer, or why the turn stopped waiting for it. */
export type ModelCallOutcome =
  | { kind: 'answered'; result: LanguageModelV4GenerateResult }
  | { kind: 'aborted' }
  | { kind: 'timed_out' };

/**
 * Calls `model.doGenerate` under the turn's signal and the call's own deadline. The model gets a
 * signal that fires on either; the call is also raced against them, so a model that ignores its
 * signal (or hangs) is abandoned, not awaited. An abandoned call's late answer or error is dropped.
 * A model error that is not caused by the stop is rethrown.
 */
export async function callModel(
  model: LanguageModelV4,
  request: Omit<LanguageModelV4CallOptions, 'abortSignal'>,
  limits: { signal: AbortSignal | undefined; timeoutMs: number },
): Promise<ModelCallOutcome> {
  if (limits.signal?.aborted) return { kind: 'aborted' };
  const controller = new AbortController();
  let stoppedBy: 'aborted' | 'timed_out' | undefined;
  let stop: (outcome: ModelCallOutcome) => void = () => {};
  const stopped = new Promise<ModelCallOutcome>((resolve) => {
    stop = resolve;
  });
  const halt = (kind: 'aborted' | 'timed_out', reason: unknown) => {
    if (stoppedBy) return;
    stoppedBy = kind;
    // Settled before the model hears of it, so the race prefers the stop to the model's abort error.
    stop({ kind });
    controller.abort(reason);
  };
  const onAbort = () => halt('aborted', limits.signal?.reason);
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    // The reason AbortSignal.timeout() gives, so providers treat it as they treat their own deadlines.
    () => halt('timed_out', new DOMException(`no answer within ${limits.timeoutMs} ms`, 'TimeoutError')),
    limits.timeoutMs,
  );
  const answer = new Promise<LanguageModelV4GenerateResult>((resolve) =>
    resolve(model.doGenerate({ ...request, abortSignal: controller.signal })),
  );
  // Nobody awaits an abandoned call: its rejection must not surface as unhandled.
  answer.catch(() => {});
  try {
    return await Promise.race([
      answer.then((result): ModelCallOutcome => ({ kind: 'answered', result })),
      stopped,
    ]);
  } catch (error) {
    if (stoppedBy) return { kind: stoppedBy };
    throw error;
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onAbort);
  }
}
