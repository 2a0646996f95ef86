import { type Envelope, type ErrorEnvelope, failure } from '@patchbay/envelope';
import { tooDeepMessage } from '@patchbay/helpers';
import { refreshConnectorStatusToolName } from '@patchbay/protocol';
import type { TurnMemoryView } from './turn-memory.js';
import type { SkipReason } from './turn-types.js';
import { groundedInUserText } from './user-grounding.js';

/** One tool call the model made, as the decision sees it. */
export interface CallState {
  toolName: string;
  /**
   * The parsed arguments, or `ok: false` when the model's text was not JSON or nests deeper than
   * `maxArgumentDepth` of `@patchbay/connector` (`tooDeep`).
   */
  arguments: { ok: true; value: unknown } | { ok: false; tooDeep?: boolean };
  /** Tool name plus the arguments as the tool would receive them (see `callIdentity`). */
  identity: string;
  /** 0 for the step's first call. */
  positionInStep: number;
  /** Whether the turn's signal has fired. */
  cancelled: boolean;
  /** Whether the tool was in the list this model call was offered. */
  offered: boolean;
  /**
   * For a tool of an installed connector that was not offered: why (its connector is not connected,
   * lacks a scope, is rate limited), answered instead of a bare `tool_unavailable`. Nothing runs either way.
   */
  notOfferedBecause?: Envelope | undefined;
}

/** The turn's fixed rules the decision applies. */
export interface CallRules {
  maxCallsPerStep: number;
  requireUserGroundedInput: boolean;
  /** Everything the user wrote in the thread and this turn. */
  userText: string;
}

/** Named conditions, checked in the order of {@link callDecisionTable}. */
export type CallCondition =
  | 'turn_cancelled'
  | 'over_call_cap'
  | 'not_offered'
  | 'too_deep'
  | 'invalid_json'
  | 'status_refresh'
  | 'already_answered'
  | 'side_effect_done'
  | 'ungrounded_input'
  | 'otherwise';

/** One row: when its condition is the first that holds, the call gets this action. */
export type CallDecisionRow =
  | { when: CallCondition; action: 'skip'; skip: SkipReason }
  | { when: CallCondition; action: 'refresh_status' | 'send' };

/**
 * What happens to each tool call, first matching row wins. `skip` answers the call without sending
 * it to the gate (the envelope says why); `refresh_status` captures status again (the meta-tool);
 * `send` runs it through `orchestrator.execute`.
 */
export const callDecisionTable: readonly CallDecisionRow[] = [
  { when: 'turn_cancelled', action: 'skip', skip: 'cancelled' },
  { when: 'over_call_cap', action: 'skip', skip: 'call_cap' },
  { when: 'not_offered', action: 'skip', skip: 'not_offered' },
  { when: 'too_deep', action: 'skip', skip: 'too_deep' },
  { when: 'invalid_json', action: 'skip', skip: 'invalid_json' },
  { when: 'status_refresh', action: 'refresh_status' },
  { when: 'already_answered', action: 'skip', skip: 'duplicate' },
  { when: 'side_effect_done', action: 'skip', skip: 'side_effect_done' },
  { when: 'ungrounded_input', action: 'skip', skip: 'ungrounded_input' },
  { when: 'otherwise', action: 'send' },
];

/**
 * The first open failure of the call's tool whose missing values the call fills with words the user
 * never wrote. Every open failure counts: a `needs_input`, and an `invalid_arguments` that also lists
 * absent fields (`missing`: a call with a wrong value and a value left out), since a retry that fixes
 * the wrong value must not make up the absent one either. A failure that lists none asks for nothing.
 */
const ungroundedNeedOf = (call: CallState, memory: TurnMemoryView, userText: string) => {
  const args = call.arguments.ok ? call.arguments.value : undefined;
  return memory.openFailuresOf(call.toolName).find((need) => !groundedInUserText(args, need, userText));
};

/** The question a refused retry is answered with: the `needs_input` itself, or the absent fields of invalid arguments. */
const askFor = (need: ErrorEnvelope): ErrorEnvelope => {
  if (need.error_type === 'needs_input') return need;
  const missing = need.missing ?? [];
  return failure('needs_input', {
    connector: need.connector,
    missing,
    userMessage: missing.map((field) => field.question).join(' '),
  });
};

const conditions: Record<
  CallCondition,
  (call: CallState, memory: TurnMemoryView, rules: CallRules) => boolean
> = {
  turn_cancelled: (call) => call.cancelled,
  over_call_cap: (call, _memory, rules) => call.positionInStep >= rules.maxCallsPerStep,
  // The offer is the turn's own gate: the orchestrator would run any registered tool status allows,
  // including one of an admin-disabled MCP server or one the model only guessed the name of.
  not_offered: (call) => !call.offered,
  // Kept as text: the thread store and providers serialise recursively and would overflow on it.
  too_deep: (call) => !call.arguments.ok && call.arguments.tooDeep === true,
  invalid_json: (call) => !call.arguments.ok,
  status_refresh: (call) => call.toolName === refreshConnectorStatusToolName,
  already_answered: (call, memory) => memory.answerFor(call.identity) !== undefined,
  // A write that already succeeded is not run again; a retry of one of its failed siblings is.
  side_effect_done: (call, memory) =>
    memory.attempt > 0 &&
    memory.sideEffectDone(call.toolName) &&
    memory.resentInStep(call.toolName) >= memory.openFailuresOf(call.toolName).length,
  // The model filled a field only the user can supply with a value the user never gave. Every open
  // question of the tool counts: with two open (say, one call lacked the channel, another the text), a
  // retry whose channel the user named but whose text is made up is not sent.
  ungrounded_input: (call, memory, rules) =>
    rules.requireUserGroundedInput && ungroundedNeedOf(call, memory, rules.userText) !== undefined,
  otherwise: () => true,
};

/** The envelope a skipped call is answered with. */
const skipAnswers: Record<
  SkipReason,
  (call: CallState, memory: TurnMemoryView, rules: CallRules) => Envelope
> = {
  // The person stopped the turn: `cancelled` (never retryable), not `timeout`, which says a deadline passed.
  cancelled: () => failure('cancelled', { userMessage: 'The turn was cancelled before this call ran.' }),
  call_cap: (_call, _memory, rules) =>
    failure('rate_limited', {
      userMessage: `A step runs at most ${rules.maxCallsPerStep} tool calls; this one was not run. Call it in a later step if it is still needed.`,
    }),
  not_offered: (call) =>
    call.notOfferedBecause ??
    failure('tool_unavailable', {
      userMessage: `${call.toolName} is not one of the tools available now; it was not run.`,
      retryable: false,
    }),
  too_deep: () => failure('invalid_arguments', { issues: [{ path: '', message: tooDeepMessage() }] }),
  invalid_json: () =>
    failure('invalid_arguments', { issues: [{ path: '', message: 'The arguments were not valid JSON.' }] }),
  duplicate: (call, memory) => memory.answerFor(call.identity)!,
  side_effect_done: (call) =>
    failure('conflict', { userMessage: `${call.toolName} already ran in this turn; it is not run again.` }),
  ungrounded_input: (call, memory, rules) => askFor(ungroundedNeedOf(call, memory, rules.userText)!),
};

/** What to do with one call: the row that decided it, and for a skip the answer. */
export type CallAction =
  | { kind: 'skip'; row: CallDecisionRow; reason: SkipReason; envelope: Envelope }
  | { kind: 'refresh_status' | 'send'; row: CallDecisionRow };

/** Decides one call by the first row of {@link callDecisionTable} whose condition holds. Pure. */
export function decideCall(call: CallState, memory: TurnMemoryView, rules: CallRules): CallAction {
  const row = callDecisionTable.find((candidate) => conditions[candidate.when](call, memory, rules))!;
  if (row.action === 'skip') {
    return { kind: 'skip', row, reason: row.skip, envelope: skipAnswers[row.skip](call, memory, rules) };
  }
  return { kind: row.action, row };
}
