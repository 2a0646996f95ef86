// The `promptfoo` engine of a run: a promptfoo config whose provider, assertion and progress hook are
// this package's, run by promptfoo (an optional peer, found from the config's directory), its HTML
// report kept with the layout fix. Its result rows are the shape the direct engine writes too.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedRun } from './checks/index.js';
import type { ResolvedEvalConfig } from './config.js';
import type { GradingResult } from './matrix.js';
import { fixReportLayout, userMessagesOf } from './report.js';
import type { Scenario } from './run-types.js';

/** One agent of a run: its name, its spec (see `agentSpecOf`) and how reports name it. */
export interface EvalAgent {
  name: string;
  spec: string;
  label: string;
}

/** Where a run writes its results and report. */
export interface EvalOutputs {
  results: string;
  report: string;
}

/** One result row as promptfoo writes it (the fields the matrix, the summary and progress read). */
export interface ResultRow {
  vars: { scenario: string; title: string; user: string };
  provider: { id: string; label: string };
  success: boolean;
  error?: string;
  gradingResult: (GradingResult & { pass: boolean; reason: string }) | undefined;
  /** The transcript and what the checks read (`metadata`), or why the scenario did not run. */
  response: {
    output?: string;
    metadata?: { model: string } & Partial<RecordedRun['metadata']>;
    error?: string | undefined;
  };
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The files promptfoo loads by path, in a process of its own: the built ones, beside this module in
 * dist/, or (this module running from its source, under vitest) the package's dist/.
 */
const promptfooFile = (name: string) => {
  const built = join(here, 'promptfoo', `${name}.js`);
  return existsSync(built) ? built : join(here, '..', 'dist', 'promptfoo', `${name}.js`);
};

/** Writes `value` as indented JSON with a final newline. */
export const writeJson = (file: string, value: unknown) =>
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** `node_modules/.bin/promptfoo` from `start` upward, or undefined when promptfoo is not installed. */
export function findPromptfoo(start: string): string | undefined {
  for (let directory = start; ; directory = dirname(directory)) {
    const bin = join(directory, 'node_modules', '.bin', 'promptfoo');
    if (existsSync(bin)) return bin;
    if (dirname(directory) === directory) return undefined;
  }
}

/** The promptfoo config of a run: the provider per agent, the checks per scenario, the progress hook. */
function promptfooConfigOf(
  scenarios: Scenario[],
  agents: EvalAgent[],
  baselineMode: boolean,
  outputs: EvalOutputs,
) {
  const grader = process.env.PATCHBAY_EVAL_GRADER;
  const provider = `file://${promptfooFile('provider')}`;
  return {
    description: baselineMode ? 'Patchbay evals: naive baselines' : `Patchbay evals: ${agents[0]!.label}`,
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
}

/** The environment promptfoo runs in: this run's config and scenarios, quiet, no telemetry. */
function promptfooEnvironment(
  config: ResolvedEvalConfig,
  directory: string,
  results: string,
  total: number,
  agents: number,
) {
  return {
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
    PATCHBAY_EVAL_PROGRESS_TOTAL: String(total),
    PATCHBAY_EVAL_PROGRESS_AGENTS: agents > 1 ? '1' : '0',
  };
}

/** What {@link runPromptfoo} needs. */
export interface PromptfooRun {
  config: ResolvedEvalConfig;
  directory: string;
  scenarios: Scenario[];
  agents: EvalAgent[];
  baselineMode: boolean;
  outputs: EvalOutputs;
  promptfoo: string;
}

/** Runs the scenarios under promptfoo; returns its rows, or undefined when it produced none. */
export function runPromptfoo({
  config,
  directory,
  scenarios,
  agents,
  baselineMode,
  outputs,
  promptfoo,
}: PromptfooRun): {
  rows: ResultRow[] | undefined;
  status: number | null;
} {
  const results = config.results;
  const configFile = join(results, baselineMode ? 'promptfooconfig.baselines.json' : 'promptfooconfig.json');
  writeJson(configFile, promptfooConfigOf(scenarios, agents, baselineMode, outputs));
  const run = spawnSync(
    promptfoo,
    ['eval', '-c', configFile, '--no-cache', '--no-progress-bar', '--no-table', '-j', '4'],
    {
      cwd: config.file ? dirname(config.file) : process.cwd(),
      stdio: ['ignore', 'inherit', 'inherit'],
      env: promptfooEnvironment(config, directory, results, scenarios.length * agents.length, agents.length),
    },
  );
  if (!existsSync(outputs.results)) return { rows: undefined, status: run.status };
  if (existsSync(outputs.report))
    writeFileSync(outputs.report, fixReportLayout(readFileSync(outputs.report, 'utf8')));
  const written = JSON.parse(readFileSync(outputs.results, 'utf8')) as { results: { results: ResultRow[] } };
  return { rows: written.results.results, status: run.status };
}
