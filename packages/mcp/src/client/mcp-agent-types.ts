import type { Agent, AgentHealth, AgentManifest } from '@patchbay/orchestrator';
import type { GetPromptResult, Prompt } from '../sdk.js';
import type { BackoffSettings } from './backoff.js';
import type { ElicitationHandler } from './elicitation.js';
import type { McpOAuthOptions } from './oauth-provider.js';
import type { McpServerFailure } from './start-failure.js';
import type { McpAgentTool } from './tool-mapping.js';
import type { DroppedTool } from './upstream-tool-limits.js';

/** Tuning of an MCP agent's connection handling; the defaults suit production. */
export interface McpAgentOptions {
  /** Reconnect backoff; default 0.5 s doubling to 30 s. */
  reconnect?: Partial<BackoffSettings>;
  /** How often a live connection is pinged, in milliseconds (default 3000). */
  healthCheckIntervalMs?: number;
  /** How long a ping may take, in milliseconds (default 1000). */
  healthCheckTimeoutMs?: number;
  /** Consecutive failed pings before the server is taken down (default 2). */
  failedChecksBeforeDown?: number;
  /** Time allowed to start the server and finish `initialize` + `tools/list` (default 15000). */
  connectTimeoutMs?: number;
  /** Pause before the one retry of a call that failed on the connection or timed out (default 300). */
  retryDelayMs?: number;
  /** Throw `agent_init_failed` from `initialize` instead of staying down and reconnecting (default false). */
  throwOnStartFailure?: boolean;
  /** What happens to a stdio child's stderr (default `ignore`: it may print anything, secrets included). */
  stderr?: 'ignore' | 'inherit';
  /**
   * Largest message a stdio server may send, in bytes (default 10 MiB, the MCP SDK's limit). A
   * bigger one makes the SDK close the connection, which kills the child; the call then answers
   * `upstream_error` (result too large) and is not retried, since a retry would get the same.
   */
  maxMessageBytes?: number;
  /**
   * Answers MCP elicitation (a server asking the user during a call, form mode). The client
   * declares the elicitation capability only when this is given; see the README's "Questions from
   * servers". Requests for secrets never reach it.
   */
  elicitation?: ElicitationHandler;
  /**
   * OAuth 2.1 sign-in for streamable-HTTP servers whose `auth` is `oauth` or `auto`: the store that
   * holds each subject's encrypted tokens and the subject this agent calls for. Tokens are refreshed
   * when they expire; the agent never starts a sign-in itself — without tokens it stays down with
   * `needs_authorization` and a `setupCommand`, with refused tokens `authorization_rejected`.
   */
  oauth?: McpOAuthOptions;
}

/** Health of an MCP server: the orchestrator's {@link AgentHealth} plus why it is down. */
export interface McpAgentHealth extends AgentHealth {
  /** Machine-readable cause when `status` is `down`; `detail` says the same in a sentence. */
  reason?: McpServerFailure | undefined;
  /** With `needs_authorization` or `authorization_rejected` of an OAuth server: the command that signs in. */
  setupCommand?: string | undefined;
}

/** An {@link Agent} backed by one MCP server. */
export interface McpAgent extends Agent {
  readonly kind: 'mcp';
  /** Server name from the config; also the agent id. */
  readonly id: string;
  /** Whether the orchestrator should start this server with the others. */
  readonly autoStart: boolean;
  /** The server's `trust` setting; every tool carries it too. */
  readonly trusted: boolean;
  /** Tool-name prefix from the config, if any: every tool of this server starts with `prefix_`. */
  readonly prefix: string | undefined;
  /** Connection state as last observed, without probing (use `health()` for a live check). */
  readonly status: AgentHealth['status'];
  /** Last observed health without probing; `retryAt` while a reconnect is scheduled, `reason` when down. */
  observedHealth(): McpAgentHealth;
  /** A live check: pings the server when it is up. */
  health(): Promise<McpAgentHealth>;
  /** Process id of a running stdio child, for operators; undefined for HTTP or when down. */
  readonly pid: number | undefined;
  manifest(): AgentManifest & { tools: McpAgentTool[] };
  onToolsChanged(listener: () => void): () => void;
  /**
   * Tools the server listed last that were left out because they broke a limit of
   * `upstreamToolLimits` (name, description, schema size or depth, a reserved or repeated name), each
   * with why; empty before the first listing.
   */
  droppedTools(): DroppedTool[];
  /**
   * The server's prompts (`prompts/list`, every page). Empty when the server declares no prompts
   * capability; throws `tool_unavailable`-coded {@link PatchbayError} when the server is not up.
   */
  listPrompts(): Promise<Prompt[]>;
  /** One prompt rendered with `args` (`prompts/get`); errors as for {@link McpAgent.listPrompts}. */
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
}
