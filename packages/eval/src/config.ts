// The eval config: what a team's repository hands the harness (its connectors, its system prompt or
// identity, its scenarios, its model) and the optional extensions a scenario key needs (a fake
// service for `packages:`/`http:`, MCP servers for `mcp:`, memory for `memory:`, external data).
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Connector, Credentials, ProposalStore, StatusSource, ThreadStore } from '@patchbay/connector';
import type { Agent, Orchestrator } from '@patchbay/orchestrator';
import type { RunTurnOptions, TurnResult } from '@patchbay/turn';
import { credentialsFor, minSecretLength } from './credentials.mjs';

/** A tool's code ran with this input (the record the side-effect checks read). */
export interface ToolRun {
  tool: string;
  input: unknown;
  /** Set by the harness on a run of a proposal a person approved (`run_approved`). */
  approved?: boolean;
}

/** What the `connectors` factory of a config gets for one scenario. */
export interface ConnectorContext {
  /** The scenario's `fixtures:` map (tool name → data); `{}` when it has none. */
  fixtures: Record<string, unknown>;
  /** The scenario's id. */
  scenarioId: string;
}

/** A request that reached the fake service (`requested`, `service_requests` checks). */
export interface ServiceRequest {
  method: string;
  url: string;
  body?: string;
  /** The client aborted the request before the service answered it (`service_aborted` counts these). */
  aborted?: boolean;
}

/** The fake service of a scenario run: routes added per turn, requests taken per turn. */
export interface EvalServiceSession {
  /** Replaces routes of the same key from now on (`turns[].http`). */
  use(routes: Record<string, unknown>): void;
  /** The requests recorded since the last call: answered ones and those no route answered. */
  take(): { requests: ServiceRequest[]; unhandled: ServiceRequest[] };
  /**
   * Calls `listener` each time a request reaches the service, before it is answered (the
   * `cancel_at_service` script step cancels the turn there). Optional: without it that step cancels nothing.
   */
  onRequest?(listener: (request: ServiceRequest) => void): void;
}

/**
 * The store a `store:` scenario runs on, structurally `PatchbayStore` of @patchbay/store (the harness
 * does not depend on it): the status source, proposals and threads, and the writes `patchbay connect`,
 * `disable` and the gate's write-back make.
 */
export interface EvalStoreHandle extends StatusSource {
  readonly proposals: ProposalStore;
  // biome-ignore lint/suspicious/noExplicitAny: runTurn's thread store, whatever message type it keeps
  readonly threads: ThreadStore<any>;
  saveConnection(
    subject: string,
    connection: {
      connectorId: string;
      credentials: Credentials;
      scopes: string[];
      verifiedAt?: string;
      verifiedOrigin?: string;
    },
  ): Promise<void>;
  deleteConnection(subject: string, connectorId: string): Promise<boolean>;
  disableConnector(connectorId: string, subject?: string): Promise<void>;
  enableConnector(connectorId: string, subject?: string): Promise<boolean>;
  clearRateLimit(subject: string, connectorId: string): Promise<void>;
}

/** Real stores for the `store:` scenario key. */
export interface EvalStore {
  /**
   * The databases a run may use now, e.g. `['sqlite']`, or `['sqlite', 'postgres']` where a Postgres
   * server is configured; a function is asked when scenarios load. `store: all` copies a scenario
   * onto each one beyond SQLite (`<id>@postgres`).
   */
  databases: readonly string[] | (() => readonly string[]);
  /**
   * A fresh, empty store of `database` for one scenario run; `close` removes it and everything in it.
   * `setProposal` edits a proposal's row in the database itself, as someone with write access to the
   * file but not the key could (`reset_executed`); without it such scenarios cannot run.
   */
  open(database: string): Promise<{
    store: EvalStoreHandle;
    close(): Promise<void>;
    setProposal?(id: string, columns: Record<string, string | null>): Promise<void>;
  }>;
}

/**
 * The fake service behind connectors that send HTTP (`packages:` scenarios with `http:` routes). The
 * harness has no HTTP mocking of its own: the project brings it (the Patchbay repository's is msw).
 */
export interface EvalService {
  /** The response names `http:` routes may use (validated before anything runs). */
  responses: readonly string[];
  /**
   * Runs `body` while the service answers `routes`. `strict`: every unanswered request fails (offline
   * agents); otherwise only requests to the service's own origins do (a live model's API calls pass).
   */
  run<T>(
    options: { routes: Record<string, unknown>; strict: boolean },
    body: (session: EvalServiceSession) => Promise<T>,
  ): Promise<T>;
}

/** MCP servers for the `mcp:` scenario key. */
export interface EvalMcp {
  /** The tool names of a server, without its `<name>_` prefix (validated in checks). */
  tools: readonly string[];
  /**
   * Registers one agent per `mcp:` entry in the orchestrator, before it starts. A server handed a
   * credential (`secret_env`) makes it a secret of the run: return it in `secrets`, and the checks
   * look for it in prompts, replies, stored threads and traces like a connector's.
   */
  register(
    orchestrator: Orchestrator,
    servers: Record<string, unknown>,
    // biome-ignore lint/suspicious/noConfusingVoidType: a register that returns nothing stays assignable
  ): McpRegistration | void;
}

/** What the config's `mcp.register` may hand back about the servers it registered. */
interface McpRegistration {
  secrets?: readonly string[];
  /** The calls each server received since the last take, by exposed tool name (`server_calls`). */
  takeCalls?(): Record<string, number>;
  /** Cleans up after the run (e.g. the files the servers counted calls in). */
  close?(): Promise<void> | undefined;
}

/** One scenario's memory (`memory:`), created before the orchestrator starts. */
export interface EvalMemorySession {
  /** runTurn's `memory` option, once the orchestrator has started. */
  open(): Promise<unknown>;
  /** Ends a thread's session (the final flush the next session reads). */
  endSession(threadId: string): Promise<void>;
  /** Takes the memory server down or brings it back (`turns[].memory`). */
  state(wanted: 'up' | 'down'): Promise<void>;
  close(): Promise<void>;
}

/** Long-term memory for the `memory:` scenario key. */
export interface EvalMemory {
  /** The memory tools the model may see (validated in checks). */
  tools: readonly string[];
  create(orchestrator: Orchestrator, subject: string, initial: 'up' | 'down'): Promise<EvalMemorySession>;
}

/**
 * The gate callers (`adversary: direct-caller` / `mcp-host`): scenarios that call the gate itself, as
 * application code and MCP hosts do, with no turn runner in front.
 */
export interface EvalCallers {
  /**
   * Agents registered for the gate callers' scenarios only (e.g. an application function wrapped
   * with `fromFunction`); push `{ tool, input }` to `log` when one runs, so `ran` counts it.
   */
  agents?: (context: { log: ToolRun[] }) => readonly Agent[];
  /**
   * The MCP gateway `mcp-host` calls tools through: `createMcpGateway` of @patchbay/mcp (what
   * `patchbay mcp` serves), given the scenario's orchestrator, connectors, status source and subject.
   */
  gateway?: (options: {
    orchestrator: Orchestrator;
    connectors: readonly Connector[];
    statusSource: StatusSource;
    subject: string;
    now: () => Date;
    refreshIntervalMs: number;
  }) => { connect(transport: never): Promise<void>; close(): Promise<void> };
  /**
   * The MCP gateway served over streamable HTTP that `mcp-http-host` calls: `serveMcpGatewayHttp` of
   * @patchbay/mcp (what `patchbay mcp --http` runs), on 127.0.0.1 with a bearer token.
   */
  serveGateway?: (options: {
    gateway: {
      orchestrator: Orchestrator;
      connectors: readonly Connector[];
      statusSource: StatusSource;
      subject: string;
      now: () => Date;
      refreshIntervalMs: number;
    };
    host: string;
    port: number;
    token: string;
    secrets: readonly string[];
  }) => Promise<{ url: string; close(): Promise<void> }>;
}

/** External data the `bfcl_*` file forms and `agentdojo:` read. */
export interface EvalData {
  /** The items of a BFCL data file by name, or undefined when there is no such file. */
  bfcl?: (file: string) => Array<{ id: string; question: Array<Array<{ content: string }>> }> | undefined;
  /** AgentDojo's attacks.json. */
  agentdojo?: {
    default_user: string;
    attack_templates: Record<string, string>;
    injection_goals: Record<string, Array<{ task: string; goal: string }>>;
  };
}

/** What a system prompt function gets for one turn. */
export interface SystemPromptInput {
  /** The config's `identity` (or the default one). */
  identity: string;
  /** The connectors this user may use now: every connector but those an admin disabled for them. */
  catalog: readonly Connector[];
}

/** A team's eval config, as `patchbay-eval.config.mjs` exports it (see {@link defineEvalConfig}). */
export interface EvalConfig {
  /**
   * The connectors every scenario runs on: a list, or a factory per scenario (it gets the scenario's
   * `fixtures:`, so stand-in connectors can answer from them).
   */
  connectors: readonly Connector[] | ((context: ConnectorContext) => readonly Connector[]);
  /** Connectors a scenario may pick by id with `packages: [id, …]` instead of `connectors`. */
  packages?: Readonly<Record<string, Connector>>;
  /** Who the agent is: the first paragraph of the system prompt Patchbay builds (`buildSystemPrompt`). */
  identity?: string;
  /** The whole system prompt instead: a text, or a function of the identity and the turn's catalog. */
  systemPrompt?: string | ((input: SystemPromptInput) => string);
  /** The scenario files' directory, relative to the config file (default `scenarios`). */
  scenarios?: string;
  /** Where results go, relative to the config file (default `eval-results`). */
  results?: string;
  /**
   * The model under test when `--agent` and `PATCHBAY_EVAL_MODEL` name none: a spec (`openai:gpt-4.1`,
   * `<base URL>|<model>`, a baseline name) or a function returning a fresh AI SDK model per scenario.
   * Without one the offline reference agent runs.
   */
  model?: string | (() => LanguageModelV4);
  /** How reports name a `model` function (default `configured model`). */
  modelLabel?: string;
  /**
   * The credentials a connected connector gets. Default: `eval-<connector>-<field>-0001` for each
   * auth field (`token` when it declares none). Every value of a secret field (all but those the
   * connector declares `secret: false`) is what the checks look for in prompts, replies, stored
   * threads and traces, so it must be at least 8 characters (shorter ones are refused).
   */
  credentials?: (connector: Connector) => Record<string, string>;
  /** The fake service for `packages:` scenarios' `http:` routes. */
  service?: EvalService;
  /** MCP servers for `mcp:` scenarios. */
  mcp?: EvalMcp;
  /** Memory for `memory:` scenarios. */
  memory?: EvalMemory;
  /** Agents and the MCP gateway for the gate callers' scenarios (the agents also for `functions: true`). */
  callers?: EvalCallers;
  /** Real stores (SQLite, Postgres) for `store:` scenarios. */
  store?: EvalStore;
  /** External data for the `bfcl_*` file forms and `agentdojo:`. */
  data?: EvalData;
  /**
   * Other turn runners by name, for scenarios with `runners:`: each runs one user turn as `runTurn`
   * does (same options, a result of the same shape) but through another loop — `streamTurn`, or a
   * framework's own loop with a Patchbay provider package. Each such scenario runs once with
   * `runTurn` and once per runner (`<id>@<runner>`), graded by the same checks.
   */
  runners?: Readonly<Record<string, TurnRunner>>;
}

/** A turn runner: `runTurn`'s contract, through another loop. */
export type TurnRunner = (options: RunTurnOptions) => Promise<TurnResult>;

/** Types a config in a `.mjs`/`.ts` file: `export default defineEvalConfig({ … })`. Returns it unchanged. */
export function defineEvalConfig(config: EvalConfig): EvalConfig {
  return config;
}

/** The default identity when a config gives none. */
export const defaultIdentity = 'You are the team assistant. Be brief and accurate.';

/** A config that failed to load or validate; `problems` lists each one as `file: path: message`. */
export class EvalConfigError extends Error {
  readonly code = 'eval_config_invalid';
  readonly problems: string[];
  constructor(file: string, problems: string[]) {
    super(`invalid eval config ${file}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'EvalConfigError';
    this.problems = problems;
  }
}

/** A config checked and with its paths made absolute. */
export interface ResolvedEvalConfig extends EvalConfig {
  /** The config file (absolute), or undefined for a config passed as an object. */
  file: string | undefined;
  scenarios: string;
  results: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function connectorProblems(value: unknown, path: string): string[] {
  if (!isRecord(value)) return [`${path}: not a connector (build it with defineConnector)`];
  const problems: string[] = [];
  if (value.specificationVersion !== 'v1')
    problems.push(`${path}: specificationVersion is not "v1" (build it with defineConnector)`);
  if (typeof value.id !== 'string') problems.push(`${path}: has no id`);
  if (!Array.isArray(value.tools)) problems.push(`${path}: has no tools list`);
  return problems;
}

/**
 * What a config's own `credentials` function hands each connector it can list (its connectors, those
 * of a factory for a scenario without fixtures, its packages), checked as a run checks it: text, and
 * every secret at least {@link minSecretLength} characters, since the leak checks search for it.
 */
function credentialProblems(config: Record<string, unknown>): string[] {
  let listed: unknown[] = [];
  try {
    const { connectors } = config;
    listed = [
      ...(Array.isArray(connectors)
        ? connectors
        : typeof connectors === 'function'
          ? connectors({ fixtures: {}, scenarioId: '' })
          : []),
      ...(isRecord(config.packages) ? Object.values(config.packages) : []),
    ];
  } catch {
    // A connectors factory that fails here fails again, with its message, when a scenario runs.
    return [];
  }
  const usable = listed.filter(
    (connector): connector is Connector =>
      isRecord(connector) && typeof connector.id === 'string' && isRecord(connector.auth),
  );
  return usable.flatMap((connector) =>
    credentialsFor(
      connector,
      config.credentials as (connector: Connector) => Record<string, string>,
    ).problems.map((problem) => `credentials: ${problem}`),
  );
}

/** Every problem of a config's shape, as `path: message`; empty when it is usable. */
export function evalConfigProblems(config: unknown): string[] {
  if (!isRecord(config)) return ['the config must be an object (export default defineEvalConfig({ … }))'];
  const problems: string[] = [];
  const known = new Set([
    'connectors',
    'packages',
    'identity',
    'systemPrompt',
    'scenarios',
    'results',
    'model',
    'modelLabel',
    'credentials',
    'service',
    'mcp',
    'memory',
    'callers',
    'data',
    'runners',
    'store',
  ]);
  for (const key of Object.keys(config)) if (!known.has(key)) problems.push(`${key}: unknown key`);
  const { connectors } = config;
  if (Array.isArray(connectors)) {
    connectors.forEach((connector, index) => {
      problems.push(...connectorProblems(connector, `connectors[${index}]`));
    });
    const ids = connectors.map((connector) => (isRecord(connector) ? connector.id : undefined));
    ids.forEach((id, index) => {
      if (typeof id === 'string' && ids.indexOf(id) !== index)
        problems.push(`connectors[${index}]: connector id "${id}" is used twice`);
    });
  } else if (typeof connectors !== 'function')
    problems.push('connectors: required: a list of connectors or a function returning one');
  if (config.packages !== undefined) {
    if (!isRecord(config.packages)) problems.push('packages: must be a map of id → connector');
    else
      for (const [id, connector] of Object.entries(config.packages))
        problems.push(...connectorProblems(connector, `packages.${id}`));
  }
  for (const key of ['identity', 'scenarios', 'results', 'modelLabel'])
    if (config[key] !== undefined && typeof config[key] !== 'string') problems.push(`${key}: must be text`);
  if (config.identity !== undefined && config.systemPrompt !== undefined)
    problems.push('systemPrompt: give either identity or systemPrompt, not both');
  if (
    config.systemPrompt !== undefined &&
    typeof config.systemPrompt !== 'string' &&
    typeof config.systemPrompt !== 'function'
  )
    problems.push('systemPrompt: must be text or a function');
  if (config.model !== undefined && typeof config.model !== 'string' && typeof config.model !== 'function')
    problems.push('model: must be a model spec (text) or a function returning a model');
  if (config.credentials !== undefined && typeof config.credentials !== 'function')
    problems.push('credentials: must be a function of the connector');
  else if (typeof config.credentials === 'function') problems.push(...credentialProblems(config));
  const shapes: Record<string, string[]> = {
    service: ['responses', 'run'],
    mcp: ['tools', 'register'],
    memory: ['tools', 'create'],
    store: ['databases', 'open'],
  };
  if (config.runners !== undefined) {
    if (!isRecord(config.runners)) problems.push('runners: must be a map of name → turn runner function');
    else
      for (const [name, runner] of Object.entries(config.runners)) {
        if (typeof runner !== 'function')
          problems.push(`runners.${name}: must be a function (runTurn's contract)`);
        if (!/^[a-z][a-z0-9-]*$/.test(name))
          problems.push(`runners.${name}: a name of lower-case letters, digits and -`);
      }
  }
  if (config.callers !== undefined) {
    if (!isRecord(config.callers)) problems.push('callers: must be an object with agents and/or gateway');
    else
      for (const key of ['agents', 'gateway', 'serveGateway'])
        if (config.callers[key] !== undefined && typeof config.callers[key] !== 'function')
          problems.push(`callers.${key}: must be a function`);
  }
  for (const [key, fields] of Object.entries(shapes)) {
    const value = config[key];
    if (value === undefined) continue;
    if (!isRecord(value)) problems.push(`${key}: must be an object with ${fields.join(' and ')}`);
    else for (const field of fields) if (!(field in value)) problems.push(`${key}.${field}: required`);
  }
  return problems;
}

/**
 * Checks a config and makes its paths absolute (relative to `file`'s directory, or `base`). Throws an
 * {@link EvalConfigError} naming every problem.
 */
export function resolveEvalConfig(
  config: unknown,
  { file, base = file ? dirname(file) : process.cwd() }: { file?: string; base?: string } = {},
): ResolvedEvalConfig {
  const problems = evalConfigProblems(config);
  if (problems.length > 0) throw new EvalConfigError(file ?? '(config object)', problems);
  const valid = config as EvalConfig;
  const at = (path: string) => (isAbsolute(path) ? path : resolve(base, path));
  return {
    ...valid,
    file,
    scenarios: at(valid.scenarios ?? 'scenarios'),
    results: at(valid.results ?? 'eval-results'),
  };
}

/** The config file names `patchbay-eval` looks for in the working directory, in order. */
export const configFileNames = [
  'patchbay-eval.config.mjs',
  'patchbay-eval.config.js',
  'patchbay-eval.config.ts',
];

/**
 * Why a `.ts` config failed to import, when Node's type stripping is the cause. Node loads a `.ts`
 * file itself by erasing its types (on by default in every Node the command supports: 22.18 and
 * later, 23.6 and later); it transforms nothing, so syntax with a meaning at run time fails, and so
 * does a type imported without `type` (it is not erased, and the module has no such value).
 */
function typeScriptHint(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const features = process.features as { typescript?: string | false };
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION' || features.typescript === false)
    return ` (a .ts config needs Node's type stripping, which is off in this Node ${process.versions.node}: drop --no-experimental-strip-types from the command line or NODE_OPTIONS, use a Node of 22.18 or later, or write the config as .mjs)`;
  if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX')
    return ' (Node erases types but transforms no TypeScript syntax: write the config without enum, namespace and parameter properties, or run node with --experimental-transform-types)';
  if (error instanceof SyntaxError && /does not provide an export named/.test(error.message))
    return ' (Node erases only what is marked as a type: import types with `import type { … }` or `{ type EvalConfig }`)';
  return '';
}

/**
 * Imports a config file (its default export, or `config`) and resolves it. A `.ts` file is loaded by
 * Node itself, which erases its types (see {@link typeScriptHint} for what that asks of the file). Throws an
 * {@link EvalConfigError} when the file is missing, fails to import or is invalid.
 */
export async function loadEvalConfig(file: string): Promise<ResolvedEvalConfig> {
  const path = resolve(file);
  if (!existsSync(path)) throw new EvalConfigError(path, ['no such file']);
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new EvalConfigError(path, [
      `failed to import: ${message}${path.endsWith('.ts') ? typeScriptHint(error) : ''}`,
    ]);
  }
  const config = module.default ?? module.config;
  if (config === undefined)
    throw new EvalConfigError(path, ['exports no config (export default defineEvalConfig({ … }))']);
  return resolveEvalConfig(config, { file: path });
}
