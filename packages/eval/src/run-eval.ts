// A whole run: validate every scenario file of the config first (a problem is printed with its file
// and line and nothing runs), run every scenario with the agent (or, with `baselines`, each naive
// baseline), print one line per scenario as it finishes and then the count, write the results, the
// summary and the matrix, and return the exit code (non-zero when a scenario fails).
//
// Two engines, the same runner and checks: `direct` runs the scenarios in this process (no promptfoo
// needed); `promptfoo` generates a promptfoo config whose provider, assertion and progress hook are
// this package's, runs promptfoo (an optional peer, found from the config's directory) and keeps its
// HTML report. Results files keep promptfoo's row shape either way, so the matrix reads both.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { baselines } from './agents/baselines.js';
import { agentFor, agentSpecOf, describeAgent } from './agents/model-from-env.js';
import { checksOfResponse, recordRun } from './checks/index.js';
import type { ResolvedEvalConfig } from './config.js';
import { ScenarioFileError } from './eval-errors.js';
import { loadScenarios } from './load-scenarios.js';
import { progressLine } from './progress.js';
import { failureLines, transcriptOf, userMessagesOf } from './report.js';
import {
  type EvalAgent,
  type EvalOutputs,
  findPromptfoo,
  type ResultRow,
  runPromptfoo,
  writeJson,
} from './run-promptfoo.js';
import { runScenario } from './run-scenario.js';
import type { Scenario, ScenarioRun } from './run-types.js';
import { writeMatrix } from './write-matrix.js';

export { findPromptfoo } from './run-promptfoo.js';

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  /** Regex on scenario ids. */
  filter?: string | undefined;
  /** Scenario files elsewhere than the config's `scenarios`. */
  directory?: string | undefined;
  /** Agent spec (see the README); default PATCHBAY_EVAL_MODEL, then the config's model. */
  agent?: string | undefined;
  /** Run the naive baselines instead. */
  baselines?: boolean | undefined;
  /** `direct` (default, no promptfoo) or `promptfoo` (needs a config file and promptfoo installed). */
  engine?: 'direct' | 'promptfoo' | undefined;
  /** A file for the machine-readable summary. */
  json?: string | undefined;
  /** Scenarios at a time in the direct engine (default 4). */
  concurrency?: number | undefined;
  print?: ((line: string) => void) | undefined;
  printError?: ((line: string) => void) | undefined;
}

/** One result row as promptfoo writes it (the fields the matrix, the summary and progress read). */
function rowOf(
  scenario: Scenario,
  agent: EvalAgent,
  run: ScenarioRun | undefined,
  error?: string,
): ResultRow {
  const recorded = run ? recordRun(scenario, run) : undefined;
  const result = recorded?.result;
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
      ? { output: transcriptOf(scenario, run), metadata: { model: agent.label, ...recorded?.metadata } }
      : { error },
  };
}

/** What a run prints and writes to, and with what. */
interface RunContext {
  config: ResolvedEvalConfig;
  scenarios: Scenario[];
  agents: EvalAgent[];
  print: (line: string) => void;
  printError: (line: string) => void;
}

/** Runs every (scenario, agent) pair in this process, `concurrency` at a time, printing progress. */
async function runDirect(
  { config, scenarios, agents, print }: RunContext,
  concurrency: number,
): Promise<ResultRow[]> {
  const jobs = agents.flatMap((agent) => scenarios.map((scenario) => ({ agent, scenario })));
  const rows = new Array<ResultRow>(jobs.length);
  let next = 0;
  let completed = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      const { agent, scenario } = jobs[index]!;
      let row: ResultRow;
      try {
        row = rowOf(scenario, agent, await runScenario(scenario, agentFor(agent.spec, config), config));
      } catch (error) {
        const message = (error as { message?: unknown } | undefined)?.message ?? error;
        row = rowOf(scenario, agent, undefined, `scenario ${scenario.id} failed to run: ${message}`);
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

/** The scenarios of the run, or the exit code when none can run (an invalid file, no match). */
function scenariosOrExit(
  config: ResolvedEvalConfig,
  options: RunEvalOptions,
  directory: string,
  { agents, printError, summaryFile }: Pick<RunContext, 'agents' | 'printError'> & { summaryFile: string },
): Scenario[] | number {
  let scenarios: Scenario[];
  try {
    scenarios = loadScenarios(config, { filter: options.filter, directory });
  } catch (error) {
    if (!ScenarioFileError.isInstance(error)) throw error;
    printError(`[eval] ${error.message}`);
    printError('[eval] no scenario ran; the scenario format is in the README of @patchbay/eval');
    if (options.baselines !== true)
      writeJson(summaryFile, {
        passed: 0,
        failed: 1,
        model: agents[0]!.label,
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
  return scenarios;
}

/** The promptfoo binary for the run, or the exit code when it cannot run under promptfoo. */
function promptfooOrExit(config: ResolvedEvalConfig, printError: (line: string) => void): string | number {
  const promptfoo =
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
  return promptfoo;
}

/** The scenarios × agents page and PNG beside the results; a failure to draw it fails nothing. */
async function printMatrix(results: string, print: (line: string) => void) {
  try {
    const { matrix, htmlPath, pngPath, png } = await writeMatrix(results);
    print(
      `[eval] matrix: ${matrix.scenarios.length} scenarios × ${matrix.agents.length} agents → ${htmlPath}${png.written ? ` and ${pngPath}` : ` (no PNG: ${png.reason})`}`,
    );
  } catch (error) {
    print(`[eval] matrix not written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Writes the machine-readable summary (`--json`): every row, with its failing checks. */
function jsonSummaryWriter(
  file: string | undefined,
  scenarios: Scenario[],
  rows: ResultRow[],
  seconds: string,
) {
  const byScenario = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
  const failuresOf = (row: ResultRow) => {
    const scenario = byScenario.get(row.vars.scenario);
    const checks = scenario ? checksOfResponse(scenario, row.response) : undefined;
    if (!checks)
      return [{ turn: 0, check: 'ran', reason: row.error ?? row.response?.error ?? 'did not run' }];
    return checks.failed.map((item) => ({ turn: item.turn, check: item.name, reason: item.reason }));
  };
  return (extra: Record<string, unknown>) => {
    if (!file) return;
    writeJson(file, {
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
}

/** What a run hands its report: its rows, how long it took, where it wrote, and how to summarise. */
interface RunReport {
  rows: ResultRow[];
  seconds: string;
  crashed: boolean;
  outputs: EvalOutputs;
  summaryFile: string;
  engine: 'direct' | 'promptfoo';
  writeJsonSummary: (extra: Record<string, unknown>) => void;
}

/** The agent's report: the count, every failure, where the results are; exit 1 when one failed. */
async function reportAgent({ agents, config, print }: RunContext, report: RunReport): Promise<number> {
  const { rows, seconds, outputs, engine } = report;
  const passed = rows.filter((row) => row.success).length;
  const failed = rows.length - passed;
  const label = agents[0]!.label;
  writeJson(report.summaryFile, { passed, failed, model: label, seconds: Number(seconds) });
  report.writeJsonSummary({ agent: label, passed, failed });
  print(`\n[eval] ${label}: ${passed} passed, ${failed} failed of ${rows.length} scenarios in ${seconds} s`);
  for (const row of rows.filter((item) => !item.success)) {
    print(
      `  FAIL ${row.vars.scenario}: ${(row.gradingResult?.reason ?? row.error ?? '').split('\n').join('\n       ')}`,
    );
  }
  print(`[eval] results: ${outputs.results}${engine === 'promptfoo' ? `, report: ${outputs.report}` : ''}`);
  await printMatrix(config.results, print);
  return failed > 0 || report.crashed ? 1 : 0;
}

/** The baselines' report: each must fail every scenario aimed at it; exit 1 when one passed one. */
async function reportBaselines(
  { agents, scenarios, config, print, printError }: RunContext,
  report: RunReport,
) {
  const { rows, seconds } = report;
  const summary: Record<string, { failed: string[]; targeted: string[]; passed_targets: string[] }> = {};
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
    summary[name] = { failed: failing, targeted, passed_targets: passedTargets };
    print(
      `  ${name}: fails ${failing.length} of ${own.length}; targets caught ${targeted.length - passedTargets.length}/${targeted.length}`,
    );
    for (const id of failing) print(`    ${targeted.includes(id) ? '*' : ' '} ${id}`);
    for (const id of passedTargets) print(`    ! passed ${id}, a scenario aimed at it`);
  }
  writeJson(join(config.results, 'baselines-summary.json'), summary);
  report.writeJsonSummary({ baselines: summary, missed });
  print(
    `[eval:baselines] ${missed === 0 ? 'every baseline fails the scenarios aimed at it' : `${missed} targeted scenarios passed by a baseline`} (${seconds} s)`,
  );
  await printMatrix(config.results, print);
  return missed > 0 ? 1 : 0;
}

/** The agents of a run: the one its spec names, or every naive baseline. */
function agentsOf(config: ResolvedEvalConfig, options: RunEvalOptions): EvalAgent[] {
  const spec = agentSpecOf(options.agent, config);
  return options.baselines === true
    ? Object.keys(baselines).map((name) => ({ name, spec: name, label: describeAgent(name, config) }))
    : [{ name: spec || 'reference-agent', spec, label: describeAgent(spec, config) }];
}

/** Runs the scenarios with the engine; undefined (after saying why) when promptfoo produced nothing. */
async function runRows(
  context: RunContext,
  options: RunEvalOptions,
  run: { directory: string; outputs: EvalOutputs; summaryFile: string; promptfoo: string | undefined },
): Promise<{ rows: ResultRow[]; crashed: boolean } | undefined> {
  const baselineMode = options.baselines === true;
  if (!run.promptfoo) {
    const rows = await runDirect(context, options.concurrency ?? 4);
    writeJson(run.outputs.results, { results: { results: rows } });
    return { rows, crashed: false };
  }
  const { config, scenarios, agents } = context;
  const outcome = runPromptfoo({ ...run, config, scenarios, agents, baselineMode, promptfoo: run.promptfoo });
  if (outcome.rows) return { rows: outcome.rows, crashed: outcome.status === null };
  context.printError(
    `\n[eval] promptfoo did not produce results (exit ${outcome.status}); is everything built? Run \`pnpm build\` first.`,
  );
  if (!baselineMode)
    writeJson(run.summaryFile, {
      passed: 0,
      failed: scenarios.length,
      model: agents[0]!.label,
      error: 'no results',
    });
  return undefined;
}

/**
 * Runs a config's scenarios and reports; returns the exit code. Options: `filter` (regex on ids),
 * `directory` (scenarios elsewhere than the config's), `agent` (spec), `baselines`, `engine`
 * (`direct` | `promptfoo`), `json` (a file for the machine-readable summary), `concurrency`,
 * `print`/`printError` (lines out).
 */
export async function runEval(config: ResolvedEvalConfig, options: RunEvalOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  const printError = options.printError ?? ((line: string) => console.error(line));
  const baselineMode = options.baselines === true;
  const directory = options.directory ?? config.scenarios;
  const engine = options.engine ?? 'direct';
  mkdirSync(config.results, { recursive: true });
  const agents = agentsOf(config, options);
  const summaryFile = join(config.results, 'summary.json');
  const scenarios = scenariosOrExit(config, options, directory, { agents, printError, summaryFile });
  if (typeof scenarios === 'number') return scenarios;
  const promptfoo = engine === 'promptfoo' ? promptfooOrExit(config, printError) : undefined;
  if (typeof promptfoo === 'number') return promptfoo;
  const outputs = {
    results: join(config.results, baselineMode ? 'baselines-results.json' : 'results.json'),
    report: join(config.results, baselineMode ? 'baselines-report.html' : 'report.html'),
  };
  // A result left from an earlier run must never pass for this one.
  for (const file of [outputs.results, outputs.report, ...(baselineMode ? [] : [summaryFile])])
    rmSync(file, { force: true });
  const started = Date.now();
  print(
    `[eval] ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} × ${agents.length === 1 ? agents[0]!.label : `${agents.length} agents`}`,
  );
  const context: RunContext = { config, scenarios, agents, print, printError };
  const ran = await runRows(context, options, { directory, outputs, summaryFile, promptfoo });
  if (!ran) return 1;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const report: RunReport = {
    ...ran,
    seconds,
    outputs,
    summaryFile,
    engine,
    writeJsonSummary: jsonSummaryWriter(options.json, scenarios, ran.rows, seconds),
  };
  return baselineMode ? reportBaselines(context, report) : reportAgent(context, report);
}
