// The public API of @patchbay/eval. The harness's internals are JavaScript (JSDoc-typed, moved from the
// repository's evals/); each is re-exported here with an explicit TypeScript type, the contract.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Connector } from '@patchbay/connector';
import { adversaries as adversariesJs } from './agents/adversaries.mjs';
import { baselines as baselinesJs } from './agents/baselines.mjs';
import {
  agentFor as agentForJs,
  describeAgent as describeAgentJs,
  modelFromSpec as modelFromSpecJs,
} from './agents/model-from-env.mjs';
import { createReferenceAgent as createReferenceAgentJs } from './agents/reference-agent.mjs';
import { checkScenario as checkScenarioJs } from './checks.mjs';
import type { ResolvedEvalConfig } from './config.js';
import {
  evalCredentials as evalCredentialsJs,
  minSecretLength as minSecretLengthJs,
} from './credentials.mjs';
import { catalogOf as catalogOfJs, loadScenarios as loadScenariosJs } from './load-scenarios.mjs';
import { buildMatrix as buildMatrixJs, renderMatrixHtml as renderMatrixHtmlJs } from './matrix.mjs';
import { progressLine as progressLineJs } from './progress.mjs';
import { failureLines as failureLinesJs, transcriptOf as transcriptOfJs } from './report.mjs';
import { runEval as runEvalJs } from './run-eval.mjs';
import { runScenario as runScenarioJs } from './run-scenario.mjs';
import { withScenarioFormat as withScenarioFormatJs } from './scenario-docs.mjs';
import {
  closestName as closestNameJs,
  ScenarioFileError as ScenarioFileErrorJs,
  ScenarioProblem as ScenarioProblemJs,
  scenarioFormatMarkdown as scenarioFormatMarkdownJs,
  validateScenarioFile as validateScenarioFileJs,
} from './scenario-schema.mjs';
import { writeMatrix as writeMatrixJs } from './write-matrix.mjs';

export { type CommandOutput, runCommand, usage } from './command.js';
export {
  type ConnectorContext,
  configFileNames,
  defaultIdentity,
  defineEvalConfig,
  type EvalCallers,
  type EvalConfig,
  EvalConfigError,
  type EvalData,
  type EvalMcp,
  type EvalMemory,
  type EvalMemorySession,
  type EvalService,
  type EvalServiceSession,
  type EvalStore,
  type EvalStoreHandle,
  evalConfigProblems,
  loadEvalConfig,
  type ResolvedEvalConfig,
  resolveEvalConfig,
  type ServiceRequest,
  type SystemPromptInput,
  type ToolRun,
  type TurnRunner,
} from './config.js';

/** A connector's status in a scenario: a bare status or one with its details (see the format). */
export type ScenarioConnectorState =
  | string
  | { status: string; scopes?: string[]; error?: string; retry_after_s?: number };

/** One user turn of a scenario (the full key list is in the README's scenario format). */
export interface ScenarioTurn {
  at: string;
  user: string;
  set?: Record<string, ScenarioConnectorState>;
  expect?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One scenario, as loaded (files of the `bfcl_*` forms are expanded into plain scenarios). */
export interface Scenario {
  id: string;
  title: string;
  source?: string;
  targets?: string[];
  connectors?: Record<string, ScenarioConnectorState>;
  turns: ScenarioTurn[];
  /** Other runners of the config this scenario also runs through (`all`: every one). */
  runners?: 'all' | string[];
  /** Set on a copy made for one runner (`<id>@<runner>`): the runner it runs through. */
  runner?: string;
  /** A real store of the config's for the status, proposals and threads (`all`: SQLite and every other database offered). */
  store?: 'sqlite' | 'postgres' | 'all';
  /** Set on a copy made for one database (`<id>@postgres`): the database it runs on. */
  database?: string;
  [key: string]: unknown;
}

/** One turn of a run: the reply, runTurn's trace, the tools that ran, the stored transcript. */
export interface TurnRun {
  user: string;
  reply: string;
  // biome-ignore lint/suspicious/noExplicitAny: runTurn's trace, read by the checks field by field
  trace: any;
  sideEffects: Array<{ tool: string; input: unknown }>;
  statusChanged: boolean;
  transcript: string;
  requests?: Array<{ method: string; url: string; body?: string; aborted?: boolean }>;
  unhandled?: Array<{ method: string; url: string; body?: string }>;
}

/** A whole scenario run, what the checks read. */
export interface ScenarioRun {
  reply: string;
  turns: TurnRun[];
  /** Tool name → effect (`read`, `write`, `destructive`). */
  effects: Record<string, string>;
  /** Tool name → connector id. */
  owners: Record<string, string>;
  /** Connector id → display name. */
  names: Record<string, string>;
  /**
   * Every secret value the run handed out (the secret fields of the credentials each connector got,
   * and what the config's `mcp` said it handed its servers): what the checks look for in prompts,
   * replies, stored threads and traces. Result files never hold it.
   */
  secrets?: readonly string[];
}

/** One deterministic check's result. */
export interface CheckResult {
  /** 1-based turn. */
  turn: number;
  name: string;
  pass: boolean;
  reason: string;
}

/** Every check of a run; `pass` when none failed. */
export interface ScenarioCheck {
  pass: boolean;
  results: CheckResult[];
  failed: CheckResult[];
}

/** One problem of a scenario file, where it is and, for a likely typo, the name that was meant. */
export interface ScenarioProblem {
  file: string;
  line: number;
  column: number;
  path?: string;
  message: string;
  suggestion?: string;
  /** `file:line:column: path: message; did you mean "x"?` (`file` relative to `base`). */
  format(base?: string): string;
}

/** The class of {@link ScenarioProblem}s. */
export const ScenarioProblem: new (fields: {
  file: string;
  line: number;
  column: number;
  path?: string;
  message: string;
  suggestion?: string;
}) => ScenarioProblem = ScenarioProblemJs;

/** Thrown by the loader when scenario files do not validate; `problems` lists every one. */
export interface ScenarioFileError extends Error {
  code: 'scenario_file_invalid';
  problems: ScenarioProblem[];
}

/** The class of {@link ScenarioFileError}s. */
export const ScenarioFileError: new (problems: ScenarioProblem[], base?: string) => ScenarioFileError =
  ScenarioFileErrorJs;

/** What scenario files may name, built from a config (see {@link catalogOf}). */
export type ScenarioCatalog = Record<string, unknown>;

/** What a config's scenarios may name: its connectors, packages, extensions, baselines, adversaries. */
export const catalogOf: (config: ResolvedEvalConfig) => ScenarioCatalog = catalogOfJs;

/**
 * Validates one scenario file's text against the format and a catalog: the parsed document and every
 * problem, each with file, line, column and, for a likely typo, a suggestion.
 */
export const validateScenarioFile: (
  text: string,
  file: string,
  catalog: ScenarioCatalog,
) => { document: unknown; problems: ScenarioProblem[] } = validateScenarioFileJs;

/**
 * Every scenario of a config (its `scenarios` directory, or `directory`), validated, in file order;
 * `filter` keeps ids it matches. Throws a {@link ScenarioFileError} listing every problem.
 */
export const loadScenarios: (
  config: ResolvedEvalConfig,
  options?: { filter?: string; directory?: string },
) => Scenario[] = loadScenariosJs;

/** The scenario format as markdown tables, generated from the schema. */
export const scenarioFormatMarkdown: () => string = scenarioFormatMarkdownJs;

/** `readme` with the text between `<!-- scenario-format:start -->` and `…:end -->` regenerated. */
export const withScenarioFormat: (readme: string) => string = withScenarioFormatJs;

/** The known name closest to `input` when it is close enough to be a typo. */
export const closestName: (input: string, known: readonly string[]) => string | undefined = closestNameJs;

/**
 * Runs one scenario with `model` on a config's connectors, system prompt and extensions: one runTurn
 * per user turn through a real orchestrator, on the scenario's clock.
 */
export const runScenario: (
  scenario: Scenario,
  model: LanguageModelV4,
  config: ResolvedEvalConfig,
) => Promise<ScenarioRun> = runScenarioJs;

/** The default credentials of a connected connector: `eval-<connector>-<field>-0001` per field. */
export const evalCredentials: (connector: Connector) => Record<string, string> = evalCredentialsJs;

/** The shortest secret credential value a config may hand out (shorter ones cannot be searched for). */
export const minSecretLength: number = minSecretLengthJs;

/** Checks a run against its scenario's `expect` blocks and the checks every turn gets. */
export const checkScenario: (scenario: Scenario, run: ScenarioRun) => ScenarioCheck = checkScenarioJs;

/** The run as text, turn by turn: time, message, tool calls with their outcome, reply. */
export const transcriptOf: (scenario: Scenario, run: ScenarioRun) => string = transcriptOfJs;

/** The failing checks of a result, one line each with its turn and that turn's message. */
export const failureLines: (scenario: Scenario, result: ScenarioCheck) => string[] = failureLinesJs;

/** One progress line: `[ n/total] PASS|FAIL|ERROR  [agent]  id: title — first failing check`. */
export const progressLine: (input: {
  completed: number;
  total: number;
  agent?: string;
  scenario: Scenario;
  result: unknown;
}) => string = progressLineJs;

/** The offline reference agent: a rule-based stand-in (not a model) that follows the protocol. */
export const createReferenceAgent: () => LanguageModelV4 = createReferenceAgentJs;

/** The naive baselines by name (`advertise-everything`, `stale-status`, `retry-same-call`). */
export const baselines: Readonly<Record<string, () => LanguageModelV4>> = baselinesJs;

/** The scripted adversaries a scenario's `adversary:` may name. */
export const adversaries: Readonly<Record<string, unknown>> = adversariesJs;

/** A fresh AI SDK model for a spec (`openai:<model>`, `anthropic:<model>`, `ollama:<model>`, `<base URL>|<model>`, a baseline; empty: the reference agent). */
export const modelFromSpec: (spec?: string) => LanguageModelV4 = modelFromSpecJs;

/** A fresh model for an agent spec; `''` is the config's model function, or the reference agent. */
export const agentFor: (spec: string, config?: Pick<ResolvedEvalConfig, 'model'>) => LanguageModelV4 =
  agentForJs;

/** How reports name the agent of a spec. */
export const describeAgent: (
  spec: string,
  config?: Pick<ResolvedEvalConfig, 'model' | 'modelLabel'>,
) => string = describeAgentJs;

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  /** Regex on scenario ids. */
  filter?: string;
  /** Scenario files elsewhere than the config's `scenarios`. */
  directory?: string;
  /** Agent spec (see the README); default PATCHBAY_EVAL_MODEL, then the config's model. */
  agent?: string;
  /** Run the naive baselines instead. */
  baselines?: boolean;
  /** `direct` (default, no promptfoo) or `promptfoo` (needs a config file and promptfoo installed). */
  engine?: 'direct' | 'promptfoo';
  /** A file for the machine-readable summary. */
  json?: string;
  /** Scenarios at a time in the direct engine (default 4). */
  concurrency?: number;
  print?: (line: string) => void;
  printError?: (line: string) => void;
}

/** Validates, runs and reports a config's scenarios; resolves to the exit code (1 when one fails). */
export const runEval: (config: ResolvedEvalConfig, options?: RunEvalOptions) => Promise<number> = runEvalJs;

/** A scenarios × agents matrix. */
export interface Matrix {
  scenarios: Array<{ scenario: string; title: string }>;
  agents: Array<{ id: string; label: string }>;
  cells: Record<string, Record<string, { pass: boolean; failedCheck?: string }>>;
}

/** Builds the matrix from result rows (promptfoo's shape; the direct engine writes the same). */
export const buildMatrix: (rowSets: unknown[][]) => Matrix = buildMatrixJs;

/** The matrix as one self-contained HTML page. */
export const renderMatrixHtml: (matrix: Matrix, options?: { generatedAt?: string }) => string =
  renderMatrixHtmlJs;

/**
 * Writes matrix.html (and matrix.png when playwright-core and a Chromium are there) from the results
 * files of a directory.
 */
export const writeMatrix: (resultsDirectory: string) => Promise<{
  matrix: Matrix;
  htmlPath: string;
  pngPath: string;
  png: { written: boolean; reason?: string };
}> = writeMatrixJs;
