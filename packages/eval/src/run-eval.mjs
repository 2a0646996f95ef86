// A whole run: validate every scenario file of the config first (a problem is printed with its file
// and line and nothing runs), run every scenario with the agent (or, with `baselines`, each naive
// baseline), print one line per scenario as it finishes and then the count, write the results, the
// summary and the matrix, and return the exit code (non-zero when a scenario fails).
//
// Two engines, the same runner and checks: `direct` runs the scenarios in this process (no promptfoo
// needed); `promptfoo` generates a promptfoo config whose provider, assertion and progress hook are
// this package's, runs promptfoo (an optional peer, found from the config's directory) and keeps its
// HTML report. Results files keep promptfoo's row shape either way, so the matrix reads both.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselines } from './agents/baselines.mjs';
import { agentFor, agentSpecOf, describeAgent } from './agents/model-from-env.mjs';
import { checksOfResponse, recordRun } from './checks.mjs';
import { loadScenarios } from './load-scenarios.mjs';
import { progressLine } from './progress.mjs';
import { failureLines, fixReportLayout, transcriptOf, userMessagesOf } from './report.mjs';
import { runScenario } from './run-scenario.mjs';
import { writeMatrix } from './write-matrix.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// The files promptfoo loads by path: beside this module in dist/, or the sources under vitest.
const promptfooFile = (name) => {
  const built = join(here, 'promptfoo', `${name}.js`);
  return existsSync(built) ? built : join(here, 'promptfoo', `${name}.mjs`);
};

const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** `node_modules/.bin/promptfoo` from `start` upward, or undefined when promptfoo is not installed. */
export function findPromptfoo(start) {
  for (let directory = start; ; directory = dirname(directory)) {
    const bin = join(directory, 'node_modules', '.bin', 'promptfoo');
    if (existsSync(bin)) return bin;
    if (dirname(directory) === directory) return undefined;
  }
}

/** One result row as promptfoo writes it (the fields the matrix, the summary and progress read). */
function rowOf(scenario, agent, run, error) {
  const { result, metadata } = run ? recordRun(scenario, run) : {};
  const pass = result?.pass ?? false;
  return {
    vars: { scenario: scenario.id, title: scenario.title, user: userMessagesOf(scenario) },
    provider: { id: `patchbay:${agent.spec || 'reference-agent'}`, label: agent.label },
    success: pass,
    ...(error ? { error } : {}),
    gradingResult: result
      ? {
          pass,
          reason: pass ? `${result.results.length} checks passed` : failureLines(scenario, result).join('\n'),
          componentResults: result.results.map((item) => ({
            pass: item.pass,
            reason: `turn ${item.turn}: ${item.reason}`,
          })),
        }
      : undefined,
    response: run
      ? {
          output: transcriptOf(scenario, run),
          metadata: { model: agent.label, ...metadata },
        }
      : { error },
  };
}

/** Runs every (scenario, agent) pair in this process, `concurrency` at a time, printing progress. */
async function runDirect({ config, scenarios, agents, concurrency, print }) {
  const jobs = agents.flatMap((agent) => scenarios.map((scenario) => ({ agent, scenario })));
  const rows = new Array(jobs.length);
  let next = 0;
  let completed = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      const { agent, scenario } = jobs[index];
      let row;
      try {
        row = rowOf(scenario, agent, await runScenario(scenario, agentFor(agent.spec, config), config));
      } catch (error) {
        row = rowOf(
          scenario,
          agent,
          undefined,
          `scenario ${scenario.id} failed to run: ${error?.message ?? error}`,
        );
      }
      rows[index] = row;
      completed += 1;
      const who = agents.length > 1 ? agent.name.padEnd(20) : undefined;
      print(`  ${progressLine({ completed, total: jobs.length, agent: who, scenario, result: row })}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, worker));
  return rows;
}

/** Runs the scenarios under promptfoo; returns its rows, or undefined when it produced none. */
function runPromptfoo({ config, directory, scenarios, agents, results, baselineMode, outputs, promptfoo }) {
  const grader = process.env.PATCHBAY_EVAL_GRADER;
  const provider = `file://${promptfooFile('provider')}`;
  const promptfooConfig = {
    description: baselineMode ? 'Patchbay evals: naive baselines' : `Patchbay evals: ${agents[0].label}`,
    // The label heads the report's output column (the raw prompt text would show as "{{scenario}}").
    prompts: [{ raw: '{{scenario}}', label: 'transcript: turns, tool calls, replies' }],
    providers: agents.map((agent) => ({ id: provider, label: agent.label, config: { model: agent.spec } })),
    extensions: [`file://${promptfooFile('progress')}:afterEach`],
    tests: scenarios.map((scenario) => ({
      description: `${scenario.id}: ${scenario.title}`,
      // The provider reads `scenario`; `title` and `user` are there for the report's columns.
      vars: { scenario: scenario.id, title: scenario.title, user: userMessagesOf(scenario) },
      metadata: { targets: (scenario.targets ?? []).join(',') || 'none', source: scenario.source ?? '' },
      assert: [
        { type: 'javascript', value: `file://${promptfooFile('assertion')}` },
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
    outputPath: [outputs.results, outputs.report],
  };
  const configFile = join(results, baselineMode ? 'promptfooconfig.baselines.json' : 'promptfooconfig.json');
  writeJson(configFile, promptfooConfig);
  const run = spawnSync(
    promptfoo,
    ['eval', '-c', configFile, '--no-cache', '--no-progress-bar', '--no-table', '-j', '4'],
    {
      cwd: config.file ? dirname(config.file) : process.cwd(),
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        PATCHBAY_EVAL_CONFIG: config.file,
        PATCHBAY_EVAL_SCENARIO_DIR: directory,
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
        PATCHBAY_EVAL_PROGRESS_TOTAL: String(scenarios.length * agents.length),
        PATCHBAY_EVAL_PROGRESS_AGENTS: agents.length > 1 ? '1' : '0',
      },
    },
  );
  if (!existsSync(outputs.results)) return { rows: undefined, status: run.status };
  if (existsSync(outputs.report))
    writeFileSync(outputs.report, fixReportLayout(readFileSync(outputs.report, 'utf8')));
  return { rows: JSON.parse(readFileSync(outputs.results, 'utf8')).results.results, status: run.status };
}

/**
 * Runs a config's scenarios and reports; returns the exit code. Options: `filter` (regex on ids),
 * `directory` (scenarios elsewhere than the config's), `agent` (spec), `baselines`, `engine`
 * (`direct` | `promptfoo`), `json` (a file for the machine-readable summary), `concurrency`,
 * `print`/`printError` (lines out).
 */
export async function runEval(config, options = {}) {
  const print = options.print ?? ((line) => console.log(line));
  const printError = options.printError ?? ((line) => console.error(line));
  const baselineMode = options.baselines === true;
  const results = config.results;
  const directory = options.directory ?? config.scenarios;
  const engine = options.engine ?? 'direct';
  mkdirSync(results, { recursive: true });
  const spec = agentSpecOf(options.agent, config);
  const agents = baselineMode
    ? Object.keys(baselines).map((name) => ({ name, spec: name, label: describeAgent(name, config) }))
    : [{ name: spec || 'reference-agent', spec, label: describeAgent(spec, config) }];
  const summaryFile = join(results, 'summary.json');

  let scenarios;
  try {
    scenarios = loadScenarios(config, { filter: options.filter, directory });
  } catch (error) {
    if (error?.code !== 'scenario_file_invalid') throw error;
    printError(`[eval] ${error.message}`);
    printError('[eval] no scenario ran; the scenario format is in the README of @patchbay/eval');
    if (!baselineMode)
      writeJson(summaryFile, {
        passed: 0,
        failed: 1,
        model: agents[0].label,
        error: 'invalid scenario files',
      });
    return 1;
  }
  if (scenarios.length === 0) {
    printError(
      options.filter
        ? `[eval] no scenario matches --filter ${options.filter}`
        : `[eval] no scenario files in ${directory}`,
    );
    return 1;
  }
  let promptfoo;
  if (engine === 'promptfoo') {
    promptfoo =
      findPromptfoo(config.file ? dirname(config.file) : process.cwd()) ?? findPromptfoo(process.cwd());
    if (!promptfoo) {
      printError(
        '[eval] --promptfoo: promptfoo is not installed here (npm install -D promptfoo), or run without --promptfoo',
      );
      return 1;
    }
    if (!config.file) {
      printError('[eval] --promptfoo needs a config file (promptfoo loads it in its own process)');
      return 1;
    }
  }

  const outputs = {
    results: join(results, baselineMode ? 'baselines-results.json' : 'results.json'),
    report: join(results, baselineMode ? 'baselines-report.html' : 'report.html'),
  };
  // A result left from an earlier run must never pass for this one.
  for (const file of [outputs.results, outputs.report, ...(baselineMode ? [] : [summaryFile])])
    rmSync(file, { force: true });

  const started = Date.now();
  print(
    `[eval] ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} × ${agents.length === 1 ? agents[0].label : `${agents.length} agents`}`,
  );
  let rows;
  let crashed = false;
  if (engine === 'promptfoo') {
    const outcome = runPromptfoo({
      config,
      directory,
      scenarios,
      agents,
      results,
      baselineMode,
      outputs,
      promptfoo,
    });
    rows = outcome.rows;
    crashed = outcome.status === null;
    if (!rows) {
      printError(
        `\n[eval] promptfoo did not produce results (exit ${outcome.status}); is everything built? Run \`pnpm build\` first.`,
      );
      if (!baselineMode)
        writeJson(summaryFile, {
          passed: 0,
          failed: scenarios.length,
          model: agents[0].label,
          error: 'no results',
        });
      return 1;
    }
  } else {
    rows = await runDirect({ config, scenarios, agents, concurrency: options.concurrency ?? 4, print });
    writeJson(outputs.results, { results: { results: rows } });
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  /** The scenarios × agents page and PNG beside the results; a failure to draw it fails nothing. */
  const printMatrix = async () => {
    try {
      const { matrix, htmlPath, pngPath, png } = await writeMatrix(results);
      print(
        `[eval] matrix: ${matrix.scenarios.length} scenarios × ${matrix.agents.length} agents → ${htmlPath}${png.written ? ` and ${pngPath}` : ` (no PNG: ${png.reason})`}`,
      );
    } catch (error) {
      print(`[eval] matrix not written: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const byScenario = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
  const failuresOf = (row) => {
    const scenario = byScenario.get(row.vars.scenario);
    const checks = scenario ? checksOfResponse(scenario, row.response) : undefined;
    if (!checks)
      return [{ turn: 0, check: 'ran', reason: row.error ?? row.response?.error ?? 'did not run' }];
    return checks.failed.map((item) => ({
      turn: item.turn,
      check: item.name,
      reason: item.reason,
    }));
  };
  const writeJsonSummary = (extra) => {
    if (!options.json) return;
    writeJson(options.json, {
      ...extra,
      seconds: Number(seconds),
      scenarios: rows.map((row) => ({
        id: row.vars.scenario,
        title: row.vars.title,
        agent: row.provider?.label ?? row.provider?.id,
        pass: row.success,
        failed: row.success ? [] : failuresOf(row),
      })),
    });
  };

  if (!baselineMode) {
    const passed = rows.filter((row) => row.success).length;
    const failed = rows.length - passed;
    const label = agents[0].label;
    writeJson(summaryFile, { passed, failed, model: label, seconds: Number(seconds) });
    writeJsonSummary({ agent: label, passed, failed });
    print(
      `\n[eval] ${label}: ${passed} passed, ${failed} failed of ${rows.length} scenarios in ${seconds} s`,
    );
    for (const row of rows.filter((item) => !item.success)) {
      print(
        `  FAIL ${row.vars.scenario}: ${(row.gradingResult?.reason ?? row.error ?? '').split('\n').join('\n       ')}`,
      );
    }
    print(`[eval] results: ${outputs.results}${engine === 'promptfoo' ? `, report: ${outputs.report}` : ''}`);
    await printMatrix();
    return failed > 0 || crashed ? 1 : 0;
  }

  // Baselines: each must fail every scenario aimed at it.
  const report = {};
  let missed = 0;
  print('\n[eval:baselines] scenarios each naive baseline fails (* = aimed at it):');
  for (const { name } of agents) {
    const own = rows.filter((row) => row.provider?.id === `patchbay:${name}`);
    if (own.length === 0) {
      printError(`[eval:baselines] no results for ${name}: the harness did not run it`);
      return 1;
    }
    const failing = own.filter((row) => !row.success).map((row) => row.vars.scenario);
    const targeted = scenarios
      .filter((scenario) => (scenario.targets ?? []).includes(name))
      .map((scenario) => scenario.id);
    const passedTargets = targeted.filter((id) => !failing.includes(id));
    missed += passedTargets.length;
    report[name] = { failed: failing, targeted, passed_targets: passedTargets };
    print(
      `  ${name}: fails ${failing.length} of ${own.length}; targets caught ${targeted.length - passedTargets.length}/${targeted.length}`,
    );
    for (const id of failing) print(`    ${targeted.includes(id) ? '*' : ' '} ${id}`);
    for (const id of passedTargets) print(`    ! passed ${id}, a scenario aimed at it`);
  }
  writeJson(join(results, 'baselines-summary.json'), report);
  writeJsonSummary({ baselines: report, missed });
  print(
    `[eval:baselines] ${missed === 0 ? 'every baseline fails the scenarios aimed at it' : `${missed} targeted scenarios passed by a baseline`} (${seconds} s)`,
  );
  await printMatrix();
  return missed > 0 ? 1 : 0;
}
