import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A request schema of the SDK: an object with a method literal. */
type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> }>;

/** "params.name: Invalid input: expected string, received number": paths and messages, never values. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => `${issue.path.map(String).join('.') || '(request)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Registers the handler of one request method on the gateway's server, parsing each request once
 * against `schema` and answering a malformed one with -32602 (invalid params), as JSON-RPC and MCP
 * ask.
 *
 * The SDK's `Protocol` parses a request against a handler's schema before the handler runs and
 * answers a failed parse with -32603 (internal error); here it is given the method alone, and the
 * full parse is this function's. It registers with `Protocol`'s own method: for tools/call the SDK
 * `Server` would wrap the handler to parse each request a second time and check the result with zod
 * again, and every result the gateway sends it builds itself (see `toCallToolResult` and its tests).
 * `Protocol` still checks the method against the server's capabilities and refuses a call that asks
 * for a task (the gateway declares no tasks capability).
 */
export function serveRequest<S extends RequestSchema>(
  server: Server,
  schema: S,
  handler: (request: z.output<S>, extra: Extra) => ServerResult | Promise<ServerResult>,
): void {
  const method = schema.shape.method.value;
  const methodOnly = z.looseObject({ method: z.literal(method) });
  Protocol.prototype.setRequestHandler.call(server, methodOnly, (request: unknown, extra: Extra) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid ${method} request: ${describeIssues(parsed.error.issues)}`,
      );
    }
    return handler(parsed.data, extra);
  });
}
