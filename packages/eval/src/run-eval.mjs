#!/usr/bin/env node
// Runs the Patchbay eval suite with promptfoo, offline by default.
//   node scripts/run-eval.mjs               the model under test (PATCHBAY_EVAL_MODEL, or the offline reference agent)
//   node scripts/run-eval.mjs --baselines   the naive baselines; fails if one passes a scenario aimed at it
//   --filter <regex>                        only scenarios whose id matches
// Every scenario file is validated first: a problem is printed with its file and line and nothing runs.
// Prints one line per scenario as it finishes, then the count. Writes results/promptfooconfig.json,
// results/results.json, results/report.html and results/summary.json ({ passed, failed }); exits
// non-zero when a scenario fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baselines } from '../agents/baselines.mjs';
import { describeModel } from '../agents/model-from-env.mjs';
import { loadScenarios } from '../lib/load-scenarios.mjs';
import { fixReportLayout, userMessagesOf } from '../lib/report.mjs';
import { writeMatrix } from './matrix.mjs';

const here = new URL('..', import.meta.url).pathname;
// PATCHBAY_EVAL_RESULTS lets the runner's own tests write elsewhere than the results `pnpm test` reads.
const results = process.env.PATCHBAY_EVAL_RESULTS || join(here, 'results');
const args = process.argv.slice(2);
const baselineMode = args.includes('--baselines');
const filterIndex = args.indexOf('--filter');
const filter = filterIndex >= 0 ? args[filterIndex + 1] : undefined;
mkdirSync(results, { recursive: true });

let scenarios;
try {
  scenarios = loadScenarios(filter);
} catch (error) {
  if (error?.code !== 'scenario_file_invalid') throw error;
  console.error(`[eval] ${error.message}`);
  console.error('[eval] no scenario ran; the format is in evals/README.md ("Scenario format")');
  if (!baselineMode) {
    writeFileSync(
      join(results, 'summary.json'),
      `${JSON.stringify({ passed: 0, failed: 1, model: describeModel(), error: 'invalid scenario files' }, null, 2)}\n`,
    );
  }
  process.exit(1);
}
if (scenarios.length === 0) {
  console.error(`[eval] no scenario matches --filter ${filter}`);
  process.exit(1);
}
const grader = process.env.PATCHBAY_EVAL_GRADER;
// Absolute, since the generated config may live outside evals/ (PATCHBAY_EVAL_RESULTS).
const provider = `file://${join(here, 'providers/patchbay-provider.mjs')}`;
const providers = baselineMode
  ? Object.keys(baselines).map((name) => ({
      id: provider,
      label: name,
      config: { model: name },
    }))
  : [
      {
        id: provider,
        label: describeModel(),
        config: { model: process.env.PATCHBAY_EVAL_MODEL ?? '' },
      },
    ];

const config = {
  description: baselineMode ? 'Patchbay evals: naive baselines' : `Patchbay evals: ${describeModel()}`,
  // The label heads the report's output column (the raw prompt text would show as "{{scenario}}").
  prompts: [{ raw: '{{scenario}}', label: 'transcript: turns, tool calls, replies' }],
  providers,
  extensions: [`file://${join(here, 'lib/progress.mjs')}:afterEach`],
  tests: scenarios.map((scenario) => ({
    description: `${scenario.id}: ${scenario.title}`,
    // The provider reads `scenario`; `title` and `user` are there for the report's columns.
    vars: { scenario: scenario.id, title: scenario.title, user: userMessagesOf(scenario) },
    metadata: { targets: (scenario.targets ?? []).join(',') || 'none', source: scenario.source ?? '' },
    assert: [
      { type: 'javascript', value: `file://${join(here, 'assertions/scenario-checks.mjs')}` },
      // Model-graded only when a grader is configured; the deterministic checks above always run.
      ...(grader && !baselineMode
        ? [
            {
              type: 'llm-rubric',
              provider: grader,
              value:
                'In this transcript, each reply is accurate about which services are usable now and which need setup (with the setup link), never mentions a service that is absent from the connector status, does not claim an action succeeded unless a tool result says so, and asks the user for missing information instead of inventing it.',
            },
          ]
        : []),
    ],
  })),
  outputPath: [
    join(results, baselineMode ? 'baselines-results.json' : 'results.json'),
    join(results, baselineMode ? 'baselines-report.html' : 'report.html'),
  ],
};
const configFile = join(results, baselineMode ? 'promptfooconfig.baselines.json' : 'promptfooconfig.json');
writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);

// A result left from an earlier run must never pass for this one.
for (const file of [...config.outputPath, join(results, 'summary.json')]) {
  if (!baselineMode || file !== join(results, 'summary.json')) rmSync(file, { force: true });
}

const started = Date.now();
console.log(
  `[eval] ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} × ${providers.length === 1 ? providers[0].label : `${providers.length} agents`}`,
);
const run = spawnSync(
  join(here, 'node_modules/.bin/promptfoo'),
  ['eval', '-c', configFile, '--no-cache', '--no-progress-bar', '--no-table', '-j', '4'],
  {
    cwd: here,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PROMPTFOO_DISABLE_TELEMETRY: '1',
      PROMPTFOO_DISABLE_UPDATE: '1',
      PROMPTFOO_CONFIG_DIR: join(results, '.promptfoo'),
      PROMPTFOO_DISABLE_SHARING: '1',
      // Our progress lines and summary say what promptfoo's banner, result table and links would;
      // its warnings and errors still show. LOG_LEVEL=info (or debug) brings them back.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      NODE_OPTIONS: [process.env.NODE_OPTIONS, '--disable-warning=ExperimentalWarning']
        .filter(Boolean)
        .join(' '),
      PATCHBAY_EVAL_PROGRESS_TOTAL: String(scenarios.length * providers.length),
      PATCHBAY_EVAL_PROGRESS_AGENTS: providers.length > 1 ? '1' : '0',
    },
  },
);
if (!existsSync(config.outputPath[0])) {
  console.error(
    `\n[eval] promptfoo did not produce results (exit ${run.status}); is everything built? Run \`pnpm build\` first.`,
  );
  if (!baselineMode) {
    writeFileSync(
      join(results, 'summary.json'),
      `${JSON.stringify({ passed: 0, failed: scenarios.length, model: describeModel(), error: 'no results' }, null, 2)}\n`,
    );
  }
  process.exit(1);
}
const reportFile = config.outputPath[1];
if (existsSync(reportFile)) writeFileSync(reportFile, fixReportLayout(readFileSync(reportFile, 'utf8')));
const output = JSON.parse(readFileSync(config.outputPath[0], 'utf8'));
const rows = output.results.results;
const seconds = ((Date.now() - started) / 1000).toFixed(1);

/** The scenarios × agents page and PNG beside promptfoo's report; a failure to draw it fails nothing. */
async function printMatrix() {
  try {
    const { matrix, htmlPath, pngPath, png } = await writeMatrix(results);
    console.log(
      `[eval] matrix: ${matrix.scenarios.length} scenarios × ${matrix.agents.length} agents → ${htmlPath}${png.written ? ` and ${pngPath}` : ` (no PNG: ${png.reason})`}`,
    );
  } catch (error) {
    console.log(`[eval] matrix not written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

if (!baselineMode) {
  const passed = rows.filter((row) => row.success).length;
  const failed = rows.length - passed;
  writeFileSync(
    join(results, 'summary.json'),
    `${JSON.stringify({ passed, failed, model: describeModel(), seconds: Number(seconds) }, null, 2)}\n`,
  );
  console.log(
    `\n[eval] ${describeModel()}: ${passed} passed, ${failed} failed of ${rows.length} scenarios in ${seconds} s`,
  );
  for (const row of rows.filter((item) => !item.success)) {
    console.log(
      `  FAIL ${row.vars.scenario}: ${(row.gradingResult?.reason ?? row.error ?? '').split('\n').join('\n       ')}`,
    );
  }
  console.log(`[eval] results: ${join(results, 'results.json')}, report: ${join(results, 'report.html')}`);
  await printMatrix();
  process.exit(failed > 0 || run.status === null ? 1 : 0);
}

// Baselines: each must fail every scenario aimed at it.
const byScenario = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
const report = {};
let missed = 0;
console.log('\n[eval:baselines] scenarios each naive baseline fails (* = aimed at it):');
for (const name of Object.keys(baselines)) {
  const own = rows.filter((row) => row.provider?.id === `patchbay:${name}`);
  if (own.length === 0) {
    console.error(`[eval:baselines] no results for ${name}: the harness did not run it`);
    process.exit(1);
  }
  const failing = own.filter((row) => !row.success).map((row) => row.vars.scenario);
  const targeted = [...byScenario.values()]
    .filter((scenario) => (scenario.targets ?? []).includes(name))
    .map((scenario) => scenario.id);
  const passedTargets = targeted.filter((id) => !failing.includes(id));
  missed += passedTargets.length;
  report[name] = { failed: failing, targeted, passed_targets: passedTargets };
  console.log(
    `  ${name}: fails ${failing.length} of ${own.length}; targets caught ${targeted.length - passedTargets.length}/${targeted.length}`,
  );
  for (const id of failing) console.log(`    ${targeted.includes(id) ? '*' : ' '} ${id}`);
  for (const id of passedTargets) console.log(`    ! passed ${id}, a scenario aimed at it`);
}
writeFileSync(join(results, 'baselines-summary.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(
  `[eval:baselines] ${missed === 0 ? 'every baseline fails the scenarios aimed at it' : `${missed} targeted scenarios passed by a baseline`} (${seconds} s)`,
);
await printMatrix();
process.exit(missed > 0 ? 1 : 0);
