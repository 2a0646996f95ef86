// @ts-check
// `pnpm mutate:unit`: the same safety-critical code under the packages' own unit tests, with
// Stryker's vitest runner (in-process, per-test coverage; the tests import TypeScript sources through
// the `@patchbay/source` condition, so nothing is built). One package per run, since each package has
// its own vitest config: PATCHBAY_MUTATE_PACKAGE=turn|orchestrator|protocol|envelope (default turn).
const scopes = {
  turn: [
    'src/turn-loop.ts',
    'src/call-decision.ts',
    'src/step-decision.ts',
    'src/step-calls.ts',
    'src/user-grounding.ts',
  ],
  orchestrator: ['src/call-pipeline.ts:1-178', 'src/approval-gate.ts'],
  // Status capture and rendering, and exposure.
  protocol: ['src/capture-status.ts', 'src/turn-context.ts', 'src/prompt-blocks.ts', 'src/tool-exposure.ts'],
  // The envelope's redaction.
  envelope: ['src/redact.ts'],
};
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by Stryker (pnpm mutate:unit), which turbo never runs.
const name = process.env.PATCHBAY_MUTATE_PACKAGE ?? 'turn';
const files = scopes[name];
if (!files) throw new Error(`PATCHBAY_MUTATE_PACKAGE must be one of ${Object.keys(scopes).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: `packages/${name}/vitest.config.ts`, dir: `packages/${name}` },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: files.map((file) => `packages/${name}/${file}`),
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `evals/mutation/unit-${name}/mutation.json` },
  htmlReporter: { fileName: `evals/mutation/unit-${name}/mutation.html` },
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
