import type { ErrorType } from './error-types.js';

/**
 * Every code a `PatchbayError` can carry, each with the envelope `error_type` that `toEnvelope` maps
 * it to. One line per code: what it means — who throws it. A new code is added here first; the
 * constructor accepts nothing else, and `error-codes.test.ts` refuses names one or two edits away
 * from an existing one.
 *
 * The envelope error types (`errorTypes`) are codes too and map to themselves: a connector throws
 * `new PatchbayError('rate_limited', '…')` and the model sees exactly that, with the error's message
 * as `user_message`. Every other code names a failure of setup, storage or the library's own API;
 * its message is written for developers and logs, so the envelope gets the mapped type's default
 * sentence instead.
 */
const codeErrorTypes = {
  /** No stored connection for this user — connectors, the gate. */
  connector_not_configured: 'connector_not_configured',
  /** Stored credentials were rejected or are incomplete — connectors. */
  invalid_credentials: 'invalid_credentials',
  /** The service asked to slow down or a quota ran out — connectors. */
  rate_limited: 'rate_limited',
  /** The connection lacks a scope — connectors. */
  permission_denied: 'permission_denied',
  /** An administrator turned the connector or tool off — the gate. */
  disabled_by_admin: 'disabled_by_admin',
  /** The user must supply information — tool handlers. */
  needs_input: 'needs_input',
  /** Arguments the caller (a model, an app) can correct — connectors, the gate, store and protocol APIs. */
  invalid_arguments: 'invalid_arguments',
  /** The target does not exist or is not visible — connectors. */
  not_found: 'not_found',
  /** The change conflicts with the current state (a duplicate id included) — connectors, store. */
  conflict: 'conflict',
  /** The service failed on its side — connectors. */
  upstream_error: 'upstream_error',
  /** The service could not be reached — connectors. */
  network_error: 'network_error',
  /** The call ran past its time limit — connectors, the gate. */
  timeout: 'timeout',
  /**
   * The caller's signal fired: a person (or the app for them) stopped the call, not a deadline — the
   * gate, the turn loop, the MCP client and OAuth sign-in, the memory agent, the CLI (Ctrl-C at a prompt).
   */
  cancelled: 'cancelled',
  /** Unknown tool or its server is down — the gate. */
  tool_unavailable: 'tool_unavailable',
  /** A person must approve the call first — the gate. */
  approval_required: 'approval_required',
  /** A person rejected the call — the gate. */
  approval_denied: 'approval_denied',
  /** A failure of our own, or a request a connector refused to send — any package. */
  internal_error: 'internal_error',

  /** A non-2xx HTTP response read into an `HttpError` (mapped by its status, not by this entry) — connectors. */
  http_error: 'upstream_error',
  /** A connector, tool or function-tool definition breaks the contract — `@patchbay/connector`, the orchestrator. */
  invalid_definition: 'internal_error',
  /** A connector's settings are unusable, e.g. a `baseUrl` that is not http(s) — `@patchbay/helpers` (the HTTP client), connectors. */
  invalid_settings: 'internal_error',
  /** A connector's `baseUrl` is plain `http://` to a host that is not loopback, without `allowInsecureHttp` — `@patchbay/helpers` (the HTTP client). */
  insecure_base_url: 'internal_error',
  /** `patchbay.config.json` is not valid JSON or fails its schema — the CLI. */
  invalid_config: 'internal_error',
  /** `patchbay.config.json` exists but cannot be read — the CLI. */
  unreadable_config: 'internal_error',
  /** `mcp-servers.json` cannot be read or is invalid; the message names the server and field — the orchestrator. */
  invalid_mcp_config: 'internal_error',
  /** `createMcpGateway` got contradictory or empty options — the MCP gateway. */
  invalid_gateway_options: 'internal_error',
  /** An eval config failed to load or validate; the message lists every problem — `@patchbay/eval`. */
  eval_config_invalid: 'internal_error',
  /** A scenario file does not validate; the message lists every problem — `@patchbay/eval`. */
  scenario_file_invalid: 'internal_error',
  /** A bad command line — the CLI (exit code 2). */
  invalid_usage: 'internal_error',
  /** No connector with that id is installed or configured — the CLI. */
  unknown_connector: 'internal_error',
  /** A connector module listed in the config cannot be found — the CLI. */
  connector_module_missing: 'internal_error',
  /** The HTTP gateway's port is taken or not permitted — the CLI. */
  port_unavailable: 'internal_error',
  /** The secret key is not 32 bytes (base64 or hex) — the store. */
  invalid_secret_key: 'internal_error',
  /** The secret key file can be read or written by group or others (like ssh's unprotected key file) — the store. */
  insecure_key_file: 'internal_error',
  /** Stored credentials do not decrypt with this secret key — the store. */
  wrong_secret_key: 'internal_error',
  /** Another process held the database lock past the busy timeout — the store. */
  store_locked: 'internal_error',
  /** The database file is damaged or not a database — the store. */
  store_corrupt: 'internal_error',
  /** The database schema is newer than this Patchbay — the store. */
  store_too_new: 'internal_error',
  /** Any other database failure — the store. */
  store_error: 'internal_error',
  /** No agent with that id is registered — the orchestrator. */
  agent_not_found: 'internal_error',
  /** An agent with that id is already registered — the orchestrator. */
  duplicate_agent: 'internal_error',
  /** A tool name is declared twice or served by two agents — the orchestrator. */
  duplicate_tool: 'internal_error',
  /** A factory for that agent kind is already registered — the orchestrator. */
  duplicate_factory: 'internal_error',
  /** No factory is registered for that agent kind — the orchestrator. */
  unknown_agent_kind: 'internal_error',
  /** An MCP server failed to start and was asked to fail instead of retrying — the MCP client. */
  agent_init_failed: 'tool_unavailable',
  /** An MCP server was stopped while it was connecting — the MCP client. */
  agent_stopped: 'tool_unavailable',
  /** An agent's shutdown threw or outlived its time limit; it counts as stopped — the orchestrator (`stopAgent`, `stop`'s report). */
  agent_shutdown_failed: 'internal_error',
  /** A remote MCP server needs an OAuth sign-in this subject has not made (`patchbay connect <server>`) — the MCP client. */
  mcp_authorization_required: 'connector_not_configured',
  /** A remote MCP server's authorization server rejected the stored tokens (revoked, expired refresh) — the MCP client. */
  mcp_authorization_rejected: 'invalid_credentials',
  /** An OAuth sign-in to an MCP server did not complete (refused, wrong `state`, no code) — the MCP client, the CLI. */
  mcp_authorization_failed: 'internal_error',
  /** Nobody finished an OAuth sign-in to an MCP server within its time limit — the MCP client, the CLI. */
  mcp_authorization_timeout: 'timeout',
  /** No proposal with that id — the orchestrator, the CLI. */
  proposal_not_found: 'not_found',
  /** The proposal was already approved, rejected or run — the orchestrator, the CLI. */
  proposal_not_pending: 'conflict',
  /** A stored proposal no longer matches what was signed (arguments, subject, tool or owner changed) — the orchestrator. */
  proposal_tampered: 'conflict',
  /** The proposal's approval window passed before it ran — the orchestrator, the CLI. */
  proposal_expired: 'conflict',
  /** The proposal MAC key given to `createOrchestrator` is unusable (shorter than 32 bytes) — the orchestrator. */
  invalid_proposal_key: 'internal_error',
  /** A thread message is larger than the store's row limit — the store. */
  message_too_large: 'invalid_arguments',
  /** A message part the turn runner cannot send to a model — the turn loop. */
  unsupported_message_part: 'internal_error',
  /** The agent turn used up its steps before a final reply (SACP `data.error_code`) — the SACP turn runner. */
  turn_step_limit: 'internal_error',
  /** The agent turn was aborted by its signal (SACP `data.error_code`) — the SACP turn runner. */
  turn_aborted: 'cancelled',
  /** A model call of the agent turn ran past its deadline (SACP `data.error_code`) — the SACP turn runner. */
  turn_timed_out: 'timeout',
  /** The model did not write a usable add_entry / put_context call within the memory agent's budget — `@patchbay/memory`. */
  memory_step_limit: 'internal_error',
  /** The scripted test model was called more times than it has steps — the turn loop's testing kit. */
  script_exhausted: 'internal_error',
  /** A chain definition is inconsistent (unknown node, no model for an agent node) — SACP. */
  sacp_invalid_chain: 'internal_error',
  /** A resume token or checkpoint is not one of this chain's — SACP. */
  sacp_invalid_checkpoint: 'internal_error',
  /** An edge condition is not a valid expression — SACP. */
  sacp_invalid_condition: 'internal_error',
  /** A node's data schema is not valid JSON Schema — SACP. */
  sacp_invalid_data_schema: 'internal_error',
  /** A node's input template names a path the state does not have — SACP. */
  sacp_missing_template_path: 'internal_error',
  /** A node's input template failed to render — SACP. */
  sacp_template_error: 'internal_error',
  /** The chain's run was aborted by its signal — SACP. */
  sacp_aborted: 'cancelled',
  /** The chain ran its maximum number of steps — SACP. */
  sacp_step_limit: 'internal_error',
  /** A node failed and no edge handles the failure — SACP. */
  sacp_unhandled_failure: 'internal_error',
  /** `defineChain({ resumeKey })` got a key shorter than 32 bytes or an empty key list — SACP. */
  sacp_invalid_resume_key: 'internal_error',
  /** A resume token was edited, truncated, signed with another key or is not a token at all — SACP. */
  sacp_invalid_resume_token: 'internal_error',
  /** A paused run was resumed a second time (same token or checkpoint): nothing ran — SACP. */
  sacp_resume_used: 'conflict',
  /** `runTurn` got a limit out of range (`maxSteps`, attempts, temperatures, caps) — the turn loop. */
  invalid_turn_options: 'internal_error',
  /** A schema cannot be compiled for checking — `@patchbay/json-schema`. */
  invalid_json_schema: 'internal_error',
  /** Token counting was asked for without the optional `gpt-tokenizer` peer installed — `@patchbay/protocol/tokens`. */
  tokenizer_not_installed: 'internal_error',
  /** A test server route has an empty response sequence — `@patchbay/testing`. */
  invalid_route: 'internal_error',
  /** A request reached the test server and matched no route — `@patchbay/testing`. */
  unhandled_request: 'internal_error',
  /** The test server could not register its vitest hooks here — `@patchbay/testing`. */
  test_server_lifecycle: 'internal_error',
  /** A connector has no tool of that name — `@patchbay/testing`. */
  unknown_tool: 'tool_unavailable',
} as const satisfies { [Type in ErrorType]: Type } & Record<string, ErrorType>;

/** A code a `PatchbayError` carries: one of {@link patchbayErrorCodes}, stable across releases. */
export type PatchbayErrorCode = keyof typeof codeErrorTypes;

/** Every {@link PatchbayErrorCode}, envelope error types first. */
export const patchbayErrorCodes = Object.freeze(Object.keys(codeErrorTypes)) as readonly PatchbayErrorCode[];

/** True for a string that is a {@link PatchbayErrorCode} (a code from another version may not be). */
export function isPatchbayErrorCode(value: unknown): value is PatchbayErrorCode {
  return typeof value === 'string' && Object.hasOwn(codeErrorTypes, value);
}

/**
 * The envelope `error_type` a code maps to: an error type maps to itself, every other code to the
 * type that tells the model and the user what they can do about it (mostly `internal_error`).
 */
export function errorTypeOfCode(code: PatchbayErrorCode): ErrorType {
  return codeErrorTypes[code];
}
