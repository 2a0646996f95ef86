/**
 * The one module of `@patchbay/memory` that imports `@modelcontextprotocol/sdk`, so an SDK upgrade
 * that moves its names touches this file only (a workspace test holds the rule,
 * `tests/src/sdk-imports.test.ts`).
 * @module
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
