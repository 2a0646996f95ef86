/**
 * `@patchbay/mcp`: both halves. Import `@patchbay/mcp/gateway` or `@patchbay/mcp/client` to load one.
 * @module
 */
export * from './client.js';
export * from './gateway.js';
