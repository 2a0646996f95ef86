import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';

/** How one model call ended: its answer, or why the turn stopped waiting for it. */
export type ModelCallOutcome =
  | { kind: 'answered'; result: LanguageModelV4GenerateResult }
  | { kind: 'aborted' }
  | { kind: 'timed_out' };

/** Receives the parts of a streamed model call as they arrive; never called after the call was stopped. */
export type ModelPartListener = (part: LanguageModelV4StreamPart) => void;

const noUsage: LanguageModelV4Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/**
 * Reads a `doStream` answer to its end and gathers it into the shape `doGenerate` returns: the text
 * of each text block, the tool calls, the finish reason. Each part goes to `listen` first, unless the
 * call was stopped (`stopped()`), after which nothing more is read. An `error` part fails the call.
 */
async function readStream(
  model: LanguageModelV4,
  request: LanguageModelV4CallOptions,
  listen: ModelPartListener,
  stopped: () => boolean,
): Promise<LanguageModelV4GenerateResult> {
  const { stream } = await model.doStream(request);
  const reader = stream.getReader();
  const content: LanguageModelV4Content[] = [];
  const texts = new Map<string, { type: 'text'; text: string }>();
  let finishReason: LanguageModelV4FinishReason = { unified: 'other', raw: undefined };
  let usage = noUsage;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done || stopped()) break;
      listen(part);
      switch (part.type) {
        case 'text-start': {
          const text = { type: 'text' as const, text: '' };
          texts.set(part.id, text);
          content.push(text);
          break;
        }
        case 'text-delta': {
          let text = texts.get(part.id);
          // A provider that sends deltas without a start still gets its text kept.
          if (!text) {
            text = { type: 'text', text: '' };
            texts.set(part.id, text);
            content.push(text);
          }
          text.text += part.delta;
          break;
        }
        case 'tool-call':
          content.push(part);
          break;
        case 'finish':
          finishReason = part.finishReason;
          usage = part.usage;
          break;
        case 'error':
          throw part.error instanceof Error ? part.error : new Error(String(part.error));
        default:
          break;
      }
    }
  } finally {
    // Stops a provider still sending (the turn was stopped, or the stream failed).
    reader.cancel().catch(() => {});
  }
  return { content, finishReason, usage, warnings: [] };
}

/**
 * Calls `model.doGenerate` (or, with `listen`, `model.doStream`, handing each part to `listen` as it
 * arrives) under the turn's signal and the call's own deadline. The model gets a
 * signal that fires on either; the call is also raced against them, so a model that ignores its
 * signal (or hangs) is abandoned, not awaited. An abandoned call's late answer or error is dropped.
 * A model error that is not caused by the stop is rethrown.
 */
export async function callModel(
  model: LanguageModelV4,
  request: Omit<LanguageModelV4CallOptions, 'abortSignal'>,
  limits: { signal: AbortSignal | undefined; timeoutMs: number },
  listen?: ModelPartListener,
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
  const call = { ...request, abortSignal: controller.signal };
  const answer = new Promise<LanguageModelV4GenerateResult>((resolve) =>
    resolve(listen ? readStream(model, call, listen, () => stoppedBy !== undefined) : model.doGenerate(call)),
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
