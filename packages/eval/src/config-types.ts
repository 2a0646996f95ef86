// The eval config's shape: what a team's repository hands the harness (its connectors, its system
// prompt or identity, its scenarios, its model) and the optional extensions a scenario key needs (a
// fake service for `packages:`/`http:`, MCP servers for `mcp:`, memory for `memory:`, external data).
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Connector, Credentials } from '@patchbay/connector';
import type { ProposalStore, StatusSource, ThreadStore } from '@patchbay/connector/ports';
import type { Agent, Orchestrator } from '@patchbay/orchestrator';
import type { ConversationMemory, RunTurnOptions, TurnResult } from '@patchbay/turn';

/** A tool's code ran with this input (the record the side-effect checks read). */
export interface ToolRun {
  tool: string;
  input: unknown;
  /** Set by the harness on a run of a proposal a person approved (`run_approved`). */
  approved?: boolean;
}

/** Where tool runs are recorded: an array, or anything with the same `push`. */
export interface ToolRunLog {
  push(...runs: ToolRun[]): number;
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
  open(): Promise<ConversationMemory>;
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
  agents?: (context: { log: ToolRunLog }) => readonly Agent[];
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

/** A team's eval config, as `patchbay-eval.config.mjs` exports it (see `defineEvalConfig`). */
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
   * `runTurn` and once per runner (`<id>@<runner>`), graded by the same checks. A runner given as
   * `{ run, inAll: false }` runs only where a scenario names it, not for `runners: all`.
   */
  runners?: Readonly<Record<string, RunnerEntry>>;
}

/** A turn runner: `runTurn`'s contract, through another loop. */
export type TurnRunner = (options: RunTurnOptions) => Promise<TurnResult>;

/**
 * A runner of the config's `runners`: the function, or the function with `inAll: false` for a loop
 * that is not the same agent run another way (a SACP chain answers in its own protocol), so that
 * `runners: all` leaves it out and only scenarios that name it run through it.
 */
export type RunnerEntry = TurnRunner | { run: TurnRunner; inAll?: boolean };

/** The function of a runner entry. */
export function runnerFunction(entry: RunnerEntry): TurnRunner {
  return typeof entry === 'function' ? entry : entry.run;
}

/** Whether `runners: all` includes a runner entry. */
export function runsInAll(entry: RunnerEntry): boolean {
  return typeof entry === 'function' || entry.inAll !== false;
}

/** A config checked and with its paths made absolute. */
export interface ResolvedEvalConfig extends EvalConfig {
  /** The config file (absolute), or undefined for a config passed as an object. */
  file: string | undefined;
  scenarios: string;
  results: string;
}
