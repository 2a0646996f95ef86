// @ts-check
// `pnpm mutate:eval:core`: `pnpm mutate:eval` scoped to the safety-critical core, the turn loop and
// the gate, so a round of new scenarios can be measured without the whole run's other 500 mutants
// (its time is in evals/README.md): the four files of the turn loop and `call-pipeline.ts` from the top through
// `pipeline()` (routing, status, validation, write-back and their order; `runCall`, the span, metric
// and log wrapper below it, is left out). Same command as the whole run (scripts/mutation-command.mjs),
// with `PATCHBAY_MUTATE_NEW` naming this round's scenarios (evals/scenarios/23-* to 27-*), so one run
// gives the score before and after them. Results in evals/mutation/eval-core/.
import base from './stryker.eval.config.mjs';

/** The ids of the scenarios of evals/scenarios/23-gate-callers.yaml to 27-gate-policy-and-approval.yaml. */
const roundScenarios =
  '^(caller-.*|adversary-cancelled-.*|needs-input-ask-invalid-only|needs-input-ask-mixed-failures|adversary-invented-value-ends-turn|adversary-empty-arguments|adversary-refusal-answers|mcp-big-result-truncated|retry-temperature-falls-after-fix|adversary-retry-fails-twice-then-fixed|adversary-call-cap-answer|adversary-invents-value-after-invalid-arguments|retry-stays-open-when-fix-fails|mcp-host-.*)$';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  commandRunner: {
    command: `PATCHBAY_MUTATE_NEW='${roundScenarios}' PATCHBAY_MUTATE_LOG=evals/mutation/eval-core/before-after.jsonl node evals/scripts/mutation-command.mjs`,
  },
  buildCommand: 'pnpm --filter @patchbay/orchestrator --filter @patchbay/turn run build',
  mutate: [
    'packages/turn/src/turn-loop.ts',
    'packages/turn/src/call-decision.ts',
    'packages/turn/src/step-decision.ts',
    'packages/turn/src/step-calls.ts',
    'packages/orchestrator/src/call-pipeline.ts:1-218',
  ],
  disableTypeChecks:
    '{packages/turn/src/{turn-loop,call-decision,step-decision,step-calls}.ts,packages/orchestrator/src/call-pipeline.ts}',
  jsonReporter: { fileName: 'evals/mutation/eval-core/mutation.json' },
  htmlReporter: { fileName: 'evals/mutation/eval-core/mutation.html' },
  // Two cores shared with other sessions: two mutants at a time.
  concurrency: 2,
};
