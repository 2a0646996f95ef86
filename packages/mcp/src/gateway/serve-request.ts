import type { z } from 'zod';
import type { Server } from '../sdk.js';
import {
  ErrorCode,
  McpError,
  Protocol,
  type RequestHandlerExtra,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '../sdk.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A request schema of the SDK: an object with a method literal and its params. */
type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string>; params: z.ZodType }>;

/** The params of a request that did not parse, with what was wrong. */
class MalformedParams {
  constructor(readonly issues: readonly z.core.$ZodIssue[]) {}
}

/**
 * "params.name: Invalid input: expected string, received number": each issue's path under `prefix`
 * (or "(message)" for the whole) and its message, never the value. Lenient about the issues' shape:
 * they may come from any error an SDK reports.
 */
export function describeIssues(
  issues: readonly { path?: unknown; message?: unknown }[],
  prefix: readonly string[] = [],
): string {
  return issues
    .map((issue) => {
      const path = Array.isArray(issue.path) ? issue.path.map(String) : [];
      return `${[...prefix, ...path].join('.') || '(message)'}: ${String(issue.message)}`;
    })
    .join('; ');
}

/**
 * Registers the handler of one request method on the gateway's server: each request is parsed once
 * against `schema`, and a malformed one is answered with -32602 (invalid params), as JSON-RPC and
 * MCP ask, naming each wrong field by path.
 *
 * The SDK's `Protocol` parses a request against a handler's schema before the handler runs and
 * answers a failed parse with -32603 (internal error). It is given the same schema with its params
 * caught instead, so that one parse both validates and tells this function what was wrong. It
 * registers with `Protocol`'s own method: for tools/call the SDK `Server` would wrap the handler to
 * parse each request a second time and check its result with zod again, and every result the gateway
 * sends it builds itself (see `toCallToolResult` and its tests). `Protocol` still checks the method
 * against the server's capabilities and refuses a call that asks for a task (the gateway declares
 * no tasks capability).
 */
export function serveRequest<S extends RequestSchema>(
  server: Server,
  schema: S,
  handler: (request: z.output<S>, extra: Extra) => ServerResult | Promise<ServerResult>,
): void {
  const method = schema.shape.method.value;
  const caught = schema.extend({
    params: schema.shape.params.catch(
      (context: z.core.$ZodCatchCtx) => new MalformedParams(context.error.issues),
    ),
  });
  Protocol.prototype.setRequestHandler.call(server, caught, (request: { params?: unknown }, extra: Extra) => {
    if (request.params instanceof MalformedParams) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid ${method} request: ${describeIssues(request.params.issues, ['params'])}`,
      );
    }
    return handler(request as z.output<S>, extra);
  });
}
