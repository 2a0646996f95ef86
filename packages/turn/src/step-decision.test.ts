import { failure } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import type { InteractiveFailure } from './retry-guidance.js';
import { decideAfterStep, type StepCondition, type StepSummary, stepDecisionTable } from './step-decision.js';

const needs: InteractiveFailure = {
  toolName: 'tracker_create_issue',
  envelope: failure('needs_input', { missing: [{ field: 'project', question: 'Which project?' }] }),
};
const invalid: InteractiveFailure = {
  toolName: 'tracker_create_issue',
  envelope: failure('invalid_arguments', { issues: [{ path: 'title', message: 'too short' }] }),
};
const retryRules = { maxAttempts: 3, needsInput: 'retry' as const };

/** One situation per row in which that row is the first that holds, and what the loop must do. */
const fixtures: Record<
  StepCondition,
  {
    step: StepSummary;
    attempt: number;
    rules: typeof retryRules | { maxAttempts: number; needsInput: 'ask' };
    next: string;
  }
> = {
  ungrounded_input: {
    step: { failures: [], ungrounded: needs },
    attempt: 0,
    rules: retryRules,
    next: 'ask_user',
  },
  no_failures: {
    step: { failures: [], ungrounded: undefined },
    attempt: 3,
    rules: retryRules,
    next: 'continue',
  },
  needs_user_only: {
    step: { failures: [invalid, needs], ungrounded: undefined },
    attempt: 0,
    rules: { maxAttempts: 3, needsInput: 'ask' },
    next: 'ask_user',
  },
  attempts_exhausted: {
    step: { failures: [invalid], ungrounded: undefined },
    attempt: 3,
    rules: retryRules,
    next: 'ask_user',
  },
  otherwise: {
    step: { failures: [invalid], ungrounded: undefined },
    attempt: 2,
    rules: retryRules,
    next: 'retry',
  },
};

describe('the step decision table', () => {
  it('has a fixture for every row, so every row is reachable', () => {
    expect(Object.keys(fixtures).sort()).toEqual(stepDecisionTable.map((row) => row.when).sort());
    expect(stepDecisionTable.at(-1)).toEqual({ when: 'otherwise', next: 'retry' });
  });

  it.each(stepDecisionTable.map((row) => [row.when, row] as const))(
    'row %s decides its fixture',
    (when, row) => {
      const { step, attempt, rules, next } = fixtures[when];
      const decision = decideAfterStep(step, attempt, rules);
      expect(decision.row).toBe(row);
      expect(decision.next).toBe(next);
    },
  );

  it('puts the ungrounded call first among the failures it hands to the user', () => {
    const decision = decideAfterStep({ failures: [invalid], ungrounded: needs }, 0, retryRules);
    expect(decision).toMatchObject({ next: 'ask_user', failures: [needs, invalid] });
  });
});
