import type { InteractiveFailure } from './retry-guidance.js';
import type { TurnSettings } from './turn-settings.js';

/** What one step's calls left for the loop to react to. */
export interface StepSummary {
  /** Calls answered `needs_input` / `invalid_arguments` by the gate (or a repeat of such an answer). */
  failures: readonly InteractiveFailure[];
  /** A retried call that was not sent because its value was not something the user said. */
  ungrounded: InteractiveFailure | undefined;
}

/** Named conditions after a step, checked in the order of {@link stepDecisionTable}. */
export type StepCondition =
  | 'ungrounded_input'
  | 'no_failures'
  | 'needs_user_only'
  | 'attempts_exhausted'
  | 'otherwise';

/** One row: what the loop does next when its condition is the first that holds. */
export interface StepDecisionRow {
  when: StepCondition;
  next: 'continue' | 'ask_user' | 'retry';
}

/**
 * After a step's calls: `continue` lets the model go on, `ask_user` ends the turn with the
 * envelopes' questions, `retry` adds guidance and gives the model another attempt.
 */
export const stepDecisionTable: readonly StepDecisionRow[] = [
  { when: 'ungrounded_input', next: 'ask_user' },
  { when: 'no_failures', next: 'continue' },
  { when: 'needs_user_only', next: 'ask_user' },
  { when: 'attempts_exhausted', next: 'ask_user' },
  { when: 'otherwise', next: 'retry' },
];

type Rules = Pick<TurnSettings, 'maxAttempts' | 'needsInput'>;

const conditions: Record<StepCondition, (step: StepSummary, attempt: number, rules: Rules) => boolean> = {
  ungrounded_input: (step) => step.ungrounded !== undefined,
  no_failures: (step) => step.failures.length === 0,
  needs_user_only: (step, _attempt, rules) =>
    rules.needsInput === 'ask' && step.failures.some((item) => item.envelope.error_type === 'needs_input'),
  attempts_exhausted: (_step, attempt, rules) => attempt >= rules.maxAttempts,
  otherwise: () => true,
};

/** What the loop does next, and for `ask_user` / `retry` the failures it acts on. */
export type StepAction =
  | { next: 'continue'; row: StepDecisionRow }
  | { next: 'ask_user' | 'retry'; row: StepDecisionRow; failures: InteractiveFailure[] };

/** Decides after a step by the first row of {@link stepDecisionTable} whose condition holds. Pure. */
export function decideAfterStep(step: StepSummary, attempt: number, rules: Rules): StepAction {
  const row = stepDecisionTable.find((candidate) => conditions[candidate.when](step, attempt, rules))!;
  if (row.next === 'continue') return { next: 'continue', row };
  // The ungrounded call leads: its question is the one the model tried to answer for the user.
  const failures = step.ungrounded ? [step.ungrounded, ...step.failures] : [...step.failures];
  return { next: row.next, row, failures };
}
