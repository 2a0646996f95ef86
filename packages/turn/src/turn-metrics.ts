import { type Counter, type Meter, metrics } from '@opentelemetry/api';

/** Counters of the ask-for-input loop, on the same meter as the orchestrator's tool metrics. */
export interface TurnInstruments {
  /** Every tool result the model received, by `tool` and `outcome`. */
  toolResults: Counter;
  /** Results with `needs_input` or `invalid_arguments`: their share of `toolResults` is the interactive-error rate. */
  interactiveErrors: Counter;
  /** Retry sequences by `outcome` (`succeeded`, `asked_user`, `stopped`): `succeeded` over all is the retry success rate. */
  retrySequences: Counter;
  /** Calls of tools the model was not offered (answered `tool_unavailable`, never run), by `tool`. */
  notOffered: Counter;
}

/** Creates the turn counters on the given meter, or the global provider's. */
export function createTurnInstruments(meter?: Meter): TurnInstruments {
  const active = meter ?? metrics.getMeter('@patchbay/turn');
  return {
    toolResults: active.createCounter('patchbay.turn.tool_results', {
      description: 'Tool results returned to the model by the turn runner',
    }),
    interactiveErrors: active.createCounter('patchbay.turn.interactive_errors', {
      description: 'Tool results asking for input (needs_input, invalid_arguments)',
    }),
    retrySequences: active.createCounter('patchbay.turn.retry_sequences', {
      description: 'Ask-for-input retry sequences by outcome',
    }),
    notOffered: active.createCounter('patchbay.turn.not_offered_calls', {
      description: 'Tool calls of tools the model was not offered, answered without running',
    }),
  };
}
