/**
 * The one module of `@patchbay/mcp` that imports `@modelcontextprotocol/sdk`: every other source file
 * takes the SDK's names from here, so an SDK upgrade that moves them touches this file only (a
 * workspace test holds the rule, `tests/src/sdk-imports.test.ts`).
 *
 * Loaded eagerly: the types (free), the protocol schemas and the server side the gateway answers
 * with. Loaded when first used: the client and the transports, each of which brings dependencies of
 * its own (a process spawner, an HTTP stack, OAuth): `patchbay mcp` over stdio never pays for them.
 * @module
 */
import type * as StreamableHttpClientModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export type {
  OAuthClientProvider,
  OAuthDiscoveryState,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
export type { Client } from '@modelcontextprotocol/sdk/client/index.js';
export type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export type {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
export { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
  type ClientCapabilities,
  type ContentBlock,
  ContentBlockSchema,
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type MessageExtraInfo,
  type Prompt,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
  SubscribeRequestSchema,
  type Tool,
  ToolListChangedNotificationSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The SDK's MCP client class, loaded on first use. */
export async function loadClient() {
  return (await import('@modelcontextprotocol/sdk/client/index.js')).Client;
}

/** The SDK's stdio client transport (spawns the server process), loaded on first use. */
export async function loadStdioClientTransport() {
  return (await import('@modelcontextprotocol/sdk/client/stdio.js')).StdioClientTransport;
}

let streamableHttpClient: typeof StreamableHttpClientModule | undefined;

/** The SDK's streamable HTTP client transport and its error class, loaded on first use. */
export async function loadStreamableHttpClient(): Promise<typeof StreamableHttpClientModule> {
  streamableHttpClient ??= await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return streamableHttpClient;
}

/**
 * True for the SDK's `StreamableHTTPError`. Only a transport made after
 * {@link loadStreamableHttpClient} can throw one, so before that load the answer is `false` without
 * loading the HTTP client for a check.
 */
export function isStreamableHttpError(
  error: unknown,
): error is InstanceType<typeof StreamableHttpClientModule.StreamableHTTPError> {
  return streamableHttpClient !== undefined && error instanceof streamableHttpClient.StreamableHTTPError;
}

/** The SDK's `UnauthorizedError` class (thrown by an OAuth-enabled transport), loaded on first use. */
export async function loadUnauthorizedError() {
  return (await import('@modelcontextprotocol/sdk/client/auth.js')).UnauthorizedError;
}

/** The SDK's streamable HTTP server transport (the `--http` gateway), loaded on first use. */
export async function loadStreamableHttpServerTransport() {
  return (await import('@modelcontextprotocol/sdk/server/streamableHttp.js')).StreamableHTTPServerTransport;
}
