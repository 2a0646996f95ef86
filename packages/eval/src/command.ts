// The patchbay-eval command: parses its arguments, loads the config, and runs, checks or draws.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { baselines } from './agents/baselines.js';
import { agentSpecOf } from './agents/model-from-env.js';
import { configFileNames, EvalConfigError, loadEvalConfig, type ResolvedEvalConfig } from './config.js';
import { ScenarioFileError } from './eval-errors.js';
import { loadScenarios } from './load-scenarios.js';
import { runEval } from './run-eval.js';
import { closestName, scenarioFormatMarkdown } from './scenario-format/index.js';
import { writeMatrix } from './write-matrix.js';

/** Where the command writes its lines (the terminal by default; tests capture them). */
export interface CommandOutput {
  print(line: string): void;
  printError(line: string): void;
}

/** The usage text `patchbay-eval --help` prints. */
export const usage = `patchbay-eval — run Patchbay behaviour scenarios against your connectors, prompt and model

Usage:
  patchbay-eval run     [options]   validate, run every scenario, report (exit 1 when one fails)
  patchbay-eval check   [options]   validate the scenario files only
  patchbay-eval matrix  [--results dir]   redraw matrix.html/.png from the results files
  patchbay-eval format              print the scenario format (markdown tables)

Options:
  --config <file>      the eval config (default: ${configFileNames.join(', ')} in the working directory)
  --scenarios <dir>    scenario files (default: the config's \`scenarios\`)
  --results <dir>      where results go (default: the config's \`results\`)
  --filter <regex>     only scenarios whose id matches
  --agent <spec>       reference | a baseline (advertise-everything, stale-status, retry-same-call) |
                       openai:<model> | anthropic:<model> | ollama:<model> | <base URL>|<model>
                       (default: PATCHBAY_EVAL_MODEL, then the config's model, then reference)
  --baselines          run the naive baselines; exit 1 if one passes a scenario aimed at it
  --promptfoo          run under promptfoo (installed beside your config) and keep its HTML report
  --json <file>        write a machine-readable summary (every scenario, pass, failing checks)
  --concurrency <n>    scenarios at a time without promptfoo (default 4)
`;

const consoleOutput: CommandOutput = {
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
};

/** The config file `--config` names, or the first default name in `cwd`. */
function configFileOf(explicit: string | undefined, cwd: string): string | undefined {
  if (explicit !== undefined) return isAbsolute(explicit) ? explicit : resolve(cwd, explicit);
  return configFileNames.map((name) => join(cwd, name)).find((file) => existsSync(file));
}

/** The parsed command line, or the exit code when it cannot be parsed. */
function parsedOrExit(argv: readonly string[], output: CommandOutput): ReturnType<typeof parse> | number {
  const flagProblem = flagProblemOf(argv);
  if (flagProblem !== undefined) {
    output.printError(`patchbay-eval: ${flagProblem} Run "patchbay-eval --help".`);
    return 2;
  }
  try {
    return parse(argv);
  } catch (error) {
    // flagProblemOf catches what parseArgs refuses; this stays for anything a later Node adds.
    output.printError(`patchbay-eval: ${error instanceof Error ? error.message : String(error)}`);
    output.printError(usage);
    return 2;
  }
}

type Values = ReturnType<typeof parse>['values'];

/** The config `--config` names (or the default file), loaded, or the exit code when there is none. */
async function configOrExit(
  values: Values,
  cwd: string,
  output: CommandOutput,
): Promise<ResolvedEvalConfig | number> {
  const file = configFileOf(values.config, cwd);
  if (!file) {
    output.printError(
      `patchbay-eval: no config: pass --config <file> or add ${configFileNames[0]} to ${cwd} (see the README of @patchbay/eval)`,
    );
    return 2;
  }
  let config: ResolvedEvalConfig;
  try {
    config = await loadEvalConfig(file);
  } catch (error) {
    if (!EvalConfigError.isInstance(error)) throw error;
    output.printError(`patchbay-eval: ${error.message}`);
    return 2;
  }
  return values.results === undefined ? config : { ...config, results: resolve(cwd, values.results) };
}

/** `patchbay-eval check`: validates the scenario files only. */
function checkScenarios(
  config: ResolvedEvalConfig,
  directory: string,
  values: Values,
  output: CommandOutput,
) {
  try {
    const scenarios = loadScenarios(config, { directory, filter: values.filter });
    output.print(`[eval] ${scenarios.length} scenarios valid in ${directory}`);
    return 0;
  } catch (error) {
    if (!ScenarioFileError.isInstance(error)) throw error;
    output.printError(`[eval] ${error.message}`);
    return 1;
  }
}

/** `patchbay-eval run`: checks the concurrency and the model, then runs every scenario. */
function runScenarios(
  config: ResolvedEvalConfig,
  directory: string,
  values: Values,
  { output, cwd }: { output: CommandOutput; cwd: string },
): Promise<number> | number {
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
    output.printError(`patchbay-eval: --concurrency must be a positive integer, got "${values.concurrency}"`);
    return 2;
  }
  if (values.baselines !== true) {
    // A model that cannot run must stop the run before the first scenario: otherwise every scenario
    // fails on the same missing key, the scripted ones pass for a model that never ran, and the
    // summary.json written at the end is counted by the next `pnpm test`.
    const problem = agentProblemOf(agentSpecOf(values.agent, config), agentSourceOf(values.agent));
    if (problem !== undefined) {
      output.printError(`patchbay-eval: ${problem} Nothing ran.`);
      return 2;
    }
  }
  return runEval(config, {
    directory,
    filter: values.filter,
    agent: values.agent,
    baselines: values.baselines === true,
    engine: values.promptfoo ? 'promptfoo' : 'direct',
    json: values.json === undefined ? undefined : resolve(cwd, values.json),
    concurrency,
    print: output.print,
    printError: output.printError,
  });
}

/**
 * Runs the command with `argv` (without node and the script) and returns its exit code: 0 when every
 * scenario passed, 1 when one failed or a scenario file is invalid, 2 for a usage or config error.
 */
export async function runCommand(
  argv: readonly string[],
  { output = consoleOutput, cwd = process.cwd() }: { output?: CommandOutput; cwd?: string } = {},
): Promise<number> {
  const parsed = parsedOrExit(argv, output);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [command = 'run', ...rest] = positionals;
  if (values.help) {
    output.print(usage);
    return 0;
  }
  if (rest.length > 0) {
    output.printError(`patchbay-eval: unexpected argument "${rest[0]}"\n${usage}`);
    return 2;
  }
  if (command === 'format') {
    output.print(scenarioFormatMarkdown());
    return 0;
  }
  if (command === 'matrix' && values.results !== undefined) {
    await printMatrix(resolve(cwd, values.results), output);
    return 0;
  }
  if (!['run', 'check', 'matrix'].includes(command)) {
    output.printError(`patchbay-eval: unknown command "${command}"\n${usage}`);
    return 2;
  }
  const config = await configOrExit(values, cwd, output);
  if (typeof config === 'number') return config;
  const directory = values.scenarios === undefined ? config.scenarios : resolve(cwd, values.scenarios);
  if (command === 'matrix') {
    await printMatrix(config.results, output);
    return 0;
  }
  if (command === 'check') return checkScenarios(config, directory, values, output);
  return runScenarios(config, directory, values, { output, cwd });
}

const options = {
  config: { type: 'string' },
  scenarios: { type: 'string' },
  results: { type: 'string' },
  filter: { type: 'string' },
  agent: { type: 'string' },
  baselines: { type: 'boolean' },
  promptfoo: { type: 'boolean' },
  json: { type: 'string' },
  concurrency: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsOptionsConfig;

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
}

/**
 * The first unknown or malformed flag, in our words, as `patchbay` words it: Node's own parseArgs
 * text quotes the flag unevenly and suggests `--` even for a typo. The close name comes from the
 * same `closestName` the scenario files' "did you mean" uses.
 */
function flagProblemOf(argv: readonly string[]): string | undefined {
  const known: Record<string, { type: 'string' | 'boolean' }> = options;
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(known, token.name) ? known[token.name] : undefined;
    if (option === undefined) {
      const meant = token.rawName.startsWith('--')
        ? closestName(
            token.rawName,
            Object.keys(known).map((name) => `--${name}`),
          )
        : undefined;
      return `unknown option ${token.rawName}.${meant === undefined ? '' : ` Did you mean ${meant}?`}`;
    }
    if (option.type === 'string' && token.value === undefined)
      return `${token.rawName} needs a value, as in ${token.rawName} <value>.`;
    if (option.type === 'boolean' && token.inlineValue) return `${token.rawName} takes no value.`;
  }
  return undefined;
}

/** Where the agent spec came from, for messages: the flag, the environment or the config. */
function agentSourceOf(explicit: string | undefined): string {
  if (explicit !== undefined && explicit !== '') return '--agent';
  if (process.env.PATCHBAY_EVAL_MODEL) return 'PATCHBAY_EVAL_MODEL';
  return "the config's model";
}

/** The API key each hosted provider reads; a run without it could only fail every scenario. */
const providerKeys: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };
const providers = ['openai', 'anthropic', 'ollama'];

/**
 * Why the agent `spec` cannot run, or undefined when it can: a malformed or unknown spec, or a
 * hosted provider whose key is not in the environment. The forms are those `modelFromSpec` accepts.
 */
function agentProblemOf(spec: string, source: string): string | undefined {
  if (spec === '' || Object.hasOwn(baselines, spec)) return undefined;
  const forms = `openai:<model>, anthropic:<model>, ollama:<model>, <base URL>|<model>, reference or a baseline (${Object.keys(baselines).join(', ')})`;
  const named = `${source} is "${spec}"`;
  if (spec.includes('|')) {
    const [baseUrl = '', modelId = ''] = spec.split('|');
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol) || modelId === '')
      return `${named}: an OpenAI-compatible server is written <base URL>|<model>, as in http://localhost:8000/v1|qwen3.`;
    return undefined;
  }
  const separator = spec.indexOf(':');
  const provider = separator < 1 ? undefined : spec.slice(0, separator);
  if (provider !== undefined && spec.slice(separator + 1) === '')
    return `${named}: no model after "${provider}:", as in openai:gpt-4.1-mini. Expected ${forms}.`;
  if (provider === undefined) {
    const meant = closestName(spec, [...providers.map((name) => `${name}:`), ...Object.keys(baselines)]);
    return `${named}, not an agent.${meant === undefined ? '' : ` Did you mean ${meant}?`} Expected ${forms}.`;
  }
  if (!providers.includes(provider)) {
    const meant = closestName(provider, providers);
    return `${named}: unknown provider "${provider}".${meant === undefined ? '' : ` Did you mean ${meant}:?`} Expected ${forms}.`;
  }
  const key = providerKeys[provider];
  if (key !== undefined && !process.env[key])
    return `${named}, which needs ${key} in the environment, and it is not set. Set it, or run without ${source} for the offline reference agent.`;
  return undefined;
}

async function printMatrix(results: string, output: CommandOutput): Promise<void> {
  const { matrix, htmlPath, pngPath, png } = await writeMatrix(results);
  output.print(
    `[eval] matrix: ${matrix.scenarios.length} scenarios × ${matrix.agents.length} agents → ${htmlPath}${png.written ? ` and ${pngPath}` : ` (no PNG: ${png.reason})`}`,
  );
}
