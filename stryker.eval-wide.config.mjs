// @ts-check
// `pnpm mutate:eval:wide`: how much of the turn loop, the gate and what surrounds them `pnpm eval`
// alone checks. The scope (issue #36): the whole turn package (but its test doubles in src/testing/),
// the gate's call pipeline and its approval files, the memory turn adapter and the SACP chain runner.
// The tests are the eval scenarios, through Stryker's `patchbay-eval` runner
// (evals/mutation/eval-test-runner.mjs: one long-lived worker on the instrumented build, `perTest`
// coverage so a mutant runs only the scenarios that reach it). For the safety-critical files
// (`patchbayEval.killCounts`: the turn loop, the gate, approvals) a mutant's scenarios run until two
// have failed, so the report's `killedBy` shows the mutants only one scenario kills
// (`mutation-summary.mjs` lists them). Results in evals/mutation/eval-wide/, with every verdict as it
// came in `runs.jsonl`.
// `inPlace`: a sandbox copy would lose pnpm's workspace links; Stryker restores the files when done.
// Run it in a clone of the repository: the instrumented sources and builds are the working tree's
// while it runs.
/** Files by package directory; their sources are `packages/<package>/src/<name>.ts`. */
const scope = {
  // The whole package but re-exports and types (index, internal, turn-types) and its test doubles
  // (src/testing/, a scripted model).
  turn: [
    'call-decision',
    'call-identity',
    'model-call',
    'model-prompt',
    'model-tool-names',
    'retry-guidance',
    'run-turn',
    'status-view',
    'step-calls',
    'step-decision',
    'stream-turn',
    'thread-store',
    'tool-result-media',
    'turn-end',
    'turn-events',
    'turn-loop',
    'turn-memory-source',
    'turn-memory',
    'turn-metrics',
    'turn-prompt',
    'turn-session',
    'turn-settings',
    'turn-tools',
    'turn-trace',
    'user-grounding',
  ],
  orchestrator: ['call-pipeline', 'approval-gate', 'approval-policy', 'used-approvals'],
  memory: ['turn-memory', 'memory-turn-context'],
  sacp: ['chain', 'chain/compile', 'chain/resume', 'chain/routing', 'chain/run', 'chain/state', 'chain/step'],
};
const files = Object.entries(scope).flatMap(([pkg, names]) =>
  names.map((name) => `packages/${pkg}/src/${name}.ts`),
);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions & { patchbayEval: object }} */
export default {
  testRunner: 'patchbay-eval',
  plugins: ['./evals/mutation/eval-test-runner.mjs'],
  coverageAnalysis: 'perTest',
  patchbayEval: {
    log: 'evals/mutation/eval-wide/runs.jsonl',
    killCounts:
      'packages/turn/src/(turn-loop|call-decision|step-decision|step-calls)\\.ts$|packages/orchestrator/src/(call-pipeline|approval-gate|approval-policy|used-approvals)\\.ts$',
  },
  buildCommand:
    'pnpm --filter @patchbay/orchestrator --filter @patchbay/turn --filter @patchbay/memory --filter @patchbay/sacp run build',
  inPlace: true,
  mutate: files,
  // Only the mutated files get `// @ts-nocheck` (the default marks every file, in place).
  disableTypeChecks: `{${files.join(',')}}`,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'evals/mutation/eval-wide/mutation.json' },
  htmlReporter: { fileName: 'evals/mutation/eval-wide/mutation.html' },
  concurrency: 2,
  // A scenario waiting on an MCP deadline takes seconds; an infinite-loop mutant costs this much more.
  timeoutMS: 20000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
