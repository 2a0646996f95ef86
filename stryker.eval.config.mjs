// @ts-check
// `pnpm mutate:eval`: how many mutants of the safety-critical code does `pnpm eval` kill on its own?
// Stryker instruments the files below in place (every mutant behind a switch), rebuilds their four
// packages once (the evals import their dist/), then runs the eval suite once per mutant with
// `__STRYKER_ACTIVE_MUTANT__` set. The command is the suite without promptfoo
// (evals/scripts/check-scenarios.mjs: the same scenarios, runner and checks as `pnpm eval`, stopping
// at the first failure), since promptfoo's start-up would multiply by every mutant; through
// evals/scripts/mutation-command.mjs, which runs the scenarios that existed before the newest ones
// first and logs both verdicts (evals/mutation/eval/before-after.jsonl), so one run gives the score
// before and after them.
// `inPlace`: a sandbox copy would lose pnpm's workspace links; Stryker restores the files when done.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: {
    command:
      'PATCHBAY_MUTATE_LOG=evals/mutation/eval/before-after.jsonl node evals/scripts/mutation-command.mjs',
  },
  buildCommand:
    'pnpm --filter @patchbay/envelope --filter @patchbay/protocol --filter @patchbay/orchestrator --filter @patchbay/turn run build',
  inPlace: true,
  // The turn loop (which call runs, what follows a step, the loop itself, the calls of a step), the
  // gate's pipeline (route → status → validate → approve → run → write back), status capture and its
  // rendering into the prompt, tool exposure, and the envelope's redaction.
  mutate: [
    'packages/turn/src/turn-loop.ts',
    'packages/turn/src/call-decision.ts',
    'packages/turn/src/step-decision.ts',
    'packages/turn/src/step-calls.ts',
    'packages/orchestrator/src/call-pipeline.ts:1-218',
    'packages/protocol/src/capture-status.ts',
    'packages/protocol/src/turn-context.ts',
    'packages/protocol/src/prompt-blocks.ts',
    'packages/protocol/src/tool-exposure.ts',
    'packages/envelope/src/redact.ts',
  ],
  // Only the mutated files get `// @ts-nocheck` (the default marks every file, in place).
  disableTypeChecks:
    '{packages/turn/src/{turn-loop,call-decision,step-decision,step-calls}.ts,packages/orchestrator/src/call-pipeline.ts,packages/protocol/src/{capture-status,turn-context,prompt-blocks,tool-exposure}.ts,packages/envelope/src/redact.ts}',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'evals/mutation/eval/mutation.json' },
  htmlReporter: { fileName: 'evals/mutation/eval/mutation.html' },
  concurrency: 2,
  // An infinite-loop mutant costs the whole timeout; a normal run takes 4-30 s here under load.
  timeoutMS: 20000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
