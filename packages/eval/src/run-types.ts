// The shapes the harness passes around: a loaded scenario, a run of it (what the checks read), and
// the checks' results.
import type { Envelope } from '@patchbay/envelope';
import type { SkipReason, TurnMemoryTrace, TurnStep } from '@patchbay/turn';
import type { ServiceRequest, ToolRun } from './config.js';
import type { LogLine } from './gate-setup.js';
import type { ExpectBlock } from './scenario-format/expect-schema.js';
import type { GateSpec } from './scenario-format/gate-schema.js';
import type { ScriptStep } from './scenario-format/script-step-schema.js';

/** A connector's status in a scenario: a bare status or one with its details (see the format). */
export type ScenarioConnectorState =
  | string
  | { status: string; scopes?: string[]; error?: string; retry_after_s?: number; verified_origin?: string };

/** One user turn of a scenario (the full key list is in the README's scenario format). */
export interface ScenarioTurn {
  at: string;
  user: string;
  set?: Record<string, ScenarioConnectorState>;
  expect?: ExpectBlock;
  /** With `adversary`: the adversary's steps, one per model call. */
  script?: ScriptStep[];
  http?: Record<string, unknown>;
  subject?: string;
  with_next?: true;
  thread?: string;
  memory?: 'up' | 'down';
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
  adversary?: string;
  packages?: string[];
  fixtures?: Record<string, unknown>;
  http?: Record<string, unknown>;
  mcp?: Record<string, unknown>;
  memory?: 'up' | 'down';
  functions?: true;
  turn_options?: { needs_input?: 'retry' | 'ask'; max_result_chars?: number };
  gate?: GateSpec;
  [key: string]: unknown;
}

/** A request the MCP HTTP gateway refused before any envelope (`mcp-http-host`). */
export interface RefusedRequest {
  ok: false;
  http_status: number;
}

/** What a call of a run was answered with: an envelope, or a refused HTTP request. */
export type RunEnvelope = Envelope | RefusedRequest;

/** One tool call of a run: a model's call as runTurn traces it, or a gate caller's. */
export interface RunCall {
  step: number;
  /** Absent on a gate caller's call (no model made it). */
  toolCallId?: string;
  toolName: string;
  /** The name the model called the tool by, when it is not the real one (see runTurn's trace). */
  modelToolName?: string;
  arguments: unknown;
  envelope: RunEnvelope;
  sent: boolean;
  skipped?: SkipReason;
  correlationId?: string;
  owner?: string;
}

/** A turn's trace as the checks read it: runTurn's, or a gate caller's (`caller: true`, no model). */
export interface RunTrace {
  /** A gate caller's trace: nothing was offered, no model step ran. */
  caller?: boolean;
  calls: RunCall[];
  steps: TurnStep[];
  exposedTools: string[];
  /** The `<connector_status>` object the model saw at the start of the turn. */
  connectorStatus?: Readonly<Record<string, object>>;
  outcome: string;
  questions: string[];
  memory?: TurnMemoryTrace;
}

/** One turn of a run: the reply, runTurn's trace, the tools that ran, the stored transcript. */
export interface TurnRun {
  user: string;
  reply: string;
  trace: RunTrace;
  sideEffects: ToolRun[];
  statusChanged: boolean;
  /** The stored thread's messages, as JSON. */
  transcript: string;
  requests?: ServiceRequest[];
  unhandled?: ServiceRequest[];
  /** The temperature of each model call (`null`: none given). */
  temperatures?: Array<number | null>;
  /** The tool choice of each model call (`null`: none given). */
  toolChoices?: Array<{ type: string } | null>;
  /** The tool names each model call was offered, as the model API receives them. */
  modelToolNames?: string[][];
  /** The calls each MCP server received in the turn, by exposed tool name (`mcp:`). */
  serverCalls?: Record<string, number>;
  /** With `gate`: the lines the orchestrator logged during the turn. */
  logs?: LogLine[];
  /** With `gate`: how many of the turn subject's proposals are in each state after the turn. */
  proposals?: Record<string, number>;
  /** With `gate.refused`, on the first turn: how createOrchestrator answered the policy. */
  gateRefusal?: { error_code?: string; message: string } | null;
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
