import type { Credentials, JsonSchema, ScopeImplication, ToolEffect } from '@patchbay/connector';
import type { Envelope } from '@patchbay/envelope';

/** MCP-style behaviour hints of a tool (from MCP `annotations`, or derived from a connector tool's effect). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool an agent serves, as the registry routes and gates it. */
export interface AgentTool {
  /** Globally unique tool name (MCP tools may carry a per-server prefix). */
  name: string;
  description: string;
  /** JSON Schema of the arguments, as models and MCP hosts read it. */
  inputJsonSchema: JsonSchema;
  effect: ToolEffect;
  /** Connector whose status gates the tool; undefined for functions and MCP tools. */
  connectorId?: string | undefined;
  requiredScopes: string[];
  /** The connector's scope implication (from `defineConnector`): a granted parent satisfies its children. */
  impliedScopes?: ScopeImplication | undefined;
  requires: string[];
  /** Per-tool timeout override in milliseconds. */
  timeoutMs?: number | undefined;
  /** Requests a user might make that this tool answers; shown to the model with the description. */
  examples?: readonly string[] | undefined;
  /** A short group name ("issues", "files"), shown to the model with the description. */
  category?: string | undefined;
  annotations?: ToolAnnotations | undefined;
  /**
   * Overrides the agent's `trusted` flag for this tool. Tools of untrusted agents need approval
   * unless `annotations.readOnlyHint` is true.
   */
  trusted?: boolean | undefined;
}

/** What an agent receives with each call. */
export interface AgentCallContext {
  subject: string;
  /** Aborted on timeout or caller cancel; the agent must stop work when it fires. */
  signal: AbortSignal;
  /**
   * True when `signal` was made for this call alone and is dropped after it, as the orchestrator's
   * gate does for every call: the agent may hand it to code that never removes its abort listeners
   * (the MCP SDK's client) instead of making a signal of its own. Absent for a caller's own signal.
   */
  signalPerCall?: boolean | undefined;
  correlationId: string;
  /** Credentials of the tool's connector for the subject (connector agents only). Secret. */
  credentials?: Credentials | undefined;
  /** Scopes granted to those credentials. */
  scopes?: readonly string[] | undefined;
  /**
   * Reports progress of a long call to whoever asked (an MCP host through the gateway). Agents that
   * learn progress (an MCP server's `notifications/progress`) call it; absent when nobody listens.
   */
  onProgress?: ((progress: CallProgress) => void) | undefined;
}

/** Progress of a running call, as MCP `notifications/progress` carries it. */
export interface CallProgress {
  /** Grows with every report; units are the agent's own. */
  progress: number;
  /** The value `progress` reaches when done, when known. */
  total?: number | undefined;
  /** A sentence without secrets saying what is happening. */
  message?: string | undefined;
}

/** Health of one agent. */
export interface AgentHealth {
  status: 'starting' | 'up' | 'down' | 'stopped';
  /** A sentence without secrets, e.g. why it is down. */
  detail?: string | undefined;
  /** Round-trip time of the last health probe in milliseconds. */
  latencyMs?: number | undefined;
  /** When the agent is down and a reconnect is scheduled: the ISO time of that attempt. */
  retryAt?: string | undefined;
}

/** The static description of an agent and its tools (seed 003's manifest). */
export interface AgentManifest {
  id: string;
  kind: 'connector' | 'function' | 'mcp';
  /** A name for people ("GitHub", an MCP server's own name); the id when the agent gives none. */
  name?: string | undefined;
  /**
   * What the agent can do, in short phrases: a connector's declared capabilities, the capability
   * groups an MCP server announced (`tools`, `prompts`, `resources`), a function's own list.
   */
  capabilities?: readonly string[] | undefined;
  /**
   * Every call of this agent's tools waits for a person's approval, reads included, whatever the
   * orchestrator's approval mode (seed 003's `requiresApproval`). Absent or false: the mode decides per tool.
   */
  requiresApproval?: boolean | undefined;
  tools: AgentTool[];
}

/**
 * Anything that serves tools to the orchestrator: a connector, wrapped functions, an MCP server.
 * `execute` receives arguments already validated and gated by the orchestrator, and should return
 * an envelope; a throw is mapped with `toEnvelope`.
 */
export interface Agent {
  readonly id: string;
  /**
   * Whether the orchestrator may run this agent's non-destructive tools without a person's approval.
   * Absent means untrusted: every tool not marked `readOnlyHint` then needs approval. MCP agents set it
   * from their server configuration; `connectorAgent` and `fromFunction` are trusted by default.
   */
  readonly trusted?: boolean | undefined;
  initialize(): Promise<void>;
  execute(toolName: string, args: unknown, context: AgentCallContext): Promise<Envelope>;
  shutdown(): Promise<void>;
  manifest(): AgentManifest;
  health(): Promise<AgentHealth>;
  /**
   * The health as last observed, without probing (no ping, no I/O). Agents that hold a connection
   * (MCP servers) implement it, so the turn and the gateway can tell per call which servers are up
   * and when a down one will be retried; agents without it are asked with `health()`.
   */
  observedHealth?(): AgentHealth;
  /** Validates raw arguments for a tool; agents with zod schemas implement it, others are checked against the JSON Schema. */
  validate?(
    toolName: string,
    args: unknown,
  ): { ok: true; value: unknown } | { ok: false; envelope: Envelope };
  /** Subscribes to tool-list changes (MCP `notifications/tools/list_changed`, reconnects). Returns an unsubscribe function. */
  onToolsChanged?(listener: () => void): () => void;
}

/** Creates an agent from configuration; registered by kind name on the orchestrator. */
export type AgentFactory<Config = unknown> = (config: Config) => Agent;
