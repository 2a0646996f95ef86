import { PatchbayError } from '@patchbay/envelope';
import { ErrorCode, isStreamableHttpError, McpError } from '../sdk.js';

/**
 * Why an MCP server is down, for operators and programs (`patchbay servers --json` prints it as
 * `reason`). One value per thing an operator would do differently:
 * - `command_not_found`: the stdio command does not exist (ENOENT) — fix `command` or install it.
 * - `not_executable`: it exists but may not be run (EACCES).
 * - `crashed_on_start`: the process ended before it finished `initialize` — run it by hand to see why.
 * - `needs_authorization`: the HTTP server answered 401 — it wants OAuth or a token header; with
 *   OAuth set up, the subject has not signed in (`patchbay connect <server>`).
 * - `authorization_rejected`: the subject's stored OAuth sign-in was refused (revoked, refresh
 *   rejected) — sign in again.
 * - `forbidden`: the HTTP server answered 403.
 * - `connection_refused`: nothing listens at the URL (ECONNREFUSED).
 * - `host_not_found`: the URL's host does not resolve (ENOTFOUND / EAI_AGAIN).
 * - `start_timeout`: the server did not finish `initialize` + `tools/list` in time.
 * - `http_error`: another HTTP status.
 * - `connection_closed`: it was up and closed the connection.
 * - `health_check_failed`: it was up and stopped answering pings.
 * - `start_failed`: none of the above (a protocol error, an unexpected answer).
 */
export type McpServerFailure =
  | 'command_not_found'
  | 'not_executable'
  | 'crashed_on_start'
  | 'needs_authorization'
  | 'authorization_rejected'
  | 'forbidden'
  | 'connection_refused'
  | 'host_not_found'
  | 'start_timeout'
  | 'http_error'
  | 'connection_closed'
  | 'health_check_failed'
  | 'start_failed';

/** A classified start failure: the reason and the sentence that says it (no secrets, no raw error text). */
export interface StartFailure {
  reason: McpServerFailure;
  detail: string;
}

function errorCodeIn(error: unknown): string | undefined {
  // Node puts the system error code on the error or, for fetch, on its cause (one or two levels down).
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function httpStatusOf(error: unknown): number | undefined {
  if (isStreamableHttpError(error)) return error.code;
  // The SDK's UnauthorizedError (thrown when an auth provider is set) carries no status.
  if (error instanceof Error && error.name === 'UnauthorizedError') return 401;
  return undefined;
}

/**
 * Classifies why connecting failed. Messages name the server and, for stdio, the command: both
 * come from the operator's own config. URLs and raw error text stay out: a URL may carry a key in
 * its query and an error text may quote a header.
 */
export function classifyStartFailure(
  error: unknown,
  server: { name: string; transport: 'stdio' | 'streamable-http'; command?: string },
): StartFailure {
  const name = `The MCP server "${server.name}"`;
  // The OAuth client's own sentences: they name the server and the command, nothing secret.
  if (PatchbayError.isInstance(error) && error.code === 'mcp_authorization_required') {
    return { reason: 'needs_authorization', detail: error.message };
  }
  if (PatchbayError.isInstance(error) && error.code === 'mcp_authorization_rejected') {
    return { reason: 'authorization_rejected', detail: error.message };
  }
  const status = httpStatusOf(error);
  if (status === 401) {
    return {
      reason: 'needs_authorization',
      detail: `${name} needs authorization (HTTP 401): it wants an OAuth sign-in or a token in "headers".`,
    };
  }
  if (status === 403) {
    return { reason: 'forbidden', detail: `${name} refused the connection (HTTP 403).` };
  }
  if (status !== undefined) {
    return { reason: 'http_error', detail: `${name} could not be started: it answered HTTP ${status}.` };
  }
  const code = errorCodeIn(error);
  if (code === 'ENOENT' && server.transport === 'stdio') {
    return {
      reason: 'command_not_found',
      detail: `${name} could not be started: its command "${server.command}" was not found (ENOENT).`,
    };
  }
  if (code === 'EACCES' && server.transport === 'stdio') {
    return {
      reason: 'not_executable',
      detail: `${name} could not be started: its command "${server.command}" may not be run (EACCES).`,
    };
  }
  if (code === 'ECONNREFUSED') {
    return {
      reason: 'connection_refused',
      detail: `${name} refused the connection: nothing is listening at its URL.`,
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return {
      reason: 'host_not_found',
      detail: `${name} could not be reached: its host name does not resolve.`,
    };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return { reason: 'start_timeout', detail: `${name} did not finish starting in time.` };
  }
  if (
    error instanceof McpError &&
    error.code === ErrorCode.ConnectionClosed &&
    server.transport === 'stdio'
  ) {
    return {
      reason: 'crashed_on_start',
      detail: `${name} exited before it finished starting; run its command by hand to see why.`,
    };
  }
  return { reason: 'start_failed', detail: `${name} could not be started.` };
}
