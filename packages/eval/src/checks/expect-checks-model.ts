// The `expect` checks of what the model read beyond the status: its `<memory>` block and the tool
// results as they reached it (whole or truncated).
import type { LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import type { ExpectBlock } from '../scenario-format/expect-schema.js';
import { memoryBlockOf } from './status-views.js';
import { lower, type TurnView, type Verdict, verdict } from './turn-view.js';

type MemoryExpect = NonNullable<ExpectBlock['memory']>;

/** What the turn's memory read and recorded (`trace.memory`). */
function memoryTraceChecks({ context: read, recorded }: MemoryExpect, { trace }: TurnView): Verdict[] {
  const verdicts: Verdict[] = [];
  if (read)
    verdicts.push(
      verdict(
        `memory read ${read}`,
        trace.memory?.context === read,
        `memory: ${JSON.stringify(trace.memory)}`,
      ),
    );
  if (recorded !== undefined)
    verdicts.push(
      verdict(
        `memory recorded ${recorded} message(s)`,
        trace.memory?.recorded === recorded,
        `memory: ${JSON.stringify(trace.memory)}`,
      ),
    );
  return verdicts;
}

/** The `<memory>` block of each step (the per-turn context is the turn's last user message). */
function memoryBlockChecks(wanted: MemoryExpect, { steps }: TurnView): Verdict[] {
  const { context: read, block_includes: includes = [], block_excludes: excludes = [] } = wanted;
  const blocks = steps.map((step) => memoryBlockOf(step.prompt));
  const verdicts: Verdict[] = [];
  if (read && read !== 'loaded') {
    const shown = blocks.findIndex((block) => block !== undefined);
    verdicts.push(
      verdict('no step shows a <memory> block', shown < 0, `step ${shown}: ${blocks[shown]?.slice(0, 200)}`),
    );
  }
  for (const text of excludes) {
    const shown = blocks.findIndex((block) => lower(block ?? '').includes(lower(text)));
    verdicts.push(
      verdict(
        `no <memory> block shows "${text}"`,
        shown < 0,
        `step ${shown}: ${blocks[shown]?.slice(0, 200)}`,
      ),
    );
  }
  for (const text of includes) {
    const missing = blocks.findIndex((block) => !lower(block ?? '').includes(lower(text)));
    verdicts.push(
      verdict(
        `<memory> shows "${text}" on every step`,
        steps.length > 0 && missing < 0,
        `step ${missing}: ${blocks[missing]?.slice(0, 200) ?? 'no <memory> block'}`,
      ),
    );
  }
  return verdicts;
}

/** `expect.memory`: what the turn's memory read and recorded, and what its `<memory>` blocks show. */
export function memoryChecks(wanted: MemoryExpect, view: TurnView): Verdict[] {
  return [...memoryTraceChecks(wanted, view), ...memoryBlockChecks(wanted, view)];
}

/** `expect.results_for_model`: how the model read every result of each tool, `whole` or `truncated`. */
export function resultsForModel(
  forms: NonNullable<ExpectBlock['results_for_model']>,
  { trace, steps, context }: TurnView,
): Verdict[] {
  return Object.entries(forms).map(([tool, form]) => {
    const limit = context.maxResultChars ?? 20_000;
    // This turn's calls only: the prompt also replays the results of earlier turns.
    const calls = trace.calls.filter((call) => call.toolName === tool);
    const ids = new Set(calls.map((call) => call.toolCallId));
    const parts = steps.flatMap((step) =>
      (step.prompt ?? []).flatMap((message) =>
        message.role === 'tool'
          ? message.content.filter(
              (part): part is LanguageModelV4ToolResultPart =>
                part.type === 'tool-result' && ids.has(part.toolCallId),
            )
          : [],
      ),
    );
    const whole = calls.map((call) => call.envelope);
    const read = ({ output }: LanguageModelV4ToolResultPart) =>
      form === 'whole'
        ? output?.type === 'json'
        : output?.type === 'text' &&
          typeof output.value === 'string' &&
          output.value.length < limit + 100 &&
          whole.some((envelope) => JSON.stringify(envelope).length > limit);
    const outputValueOf = (part: LanguageModelV4ToolResultPart) =>
      'value' in part.output ? part.output.value : undefined;
    return verdict(
      `the model read every ${tool} result ${form}`,
      parts.length > 0 && parts.every(read),
      `${parts.length} result(s) seen: ${parts.map((part) => `${part.output?.type} of ${String(JSON.stringify(outputValueOf(part))).length} chars`).join(', ')}`,
    );
  });
}
