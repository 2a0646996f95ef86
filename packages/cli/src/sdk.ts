/**
 * The one module of `@patchbay/cli` that imports `@modelcontextprotocol/sdk` (a workspace test holds
 * the rule, `tests/src/sdk-imports.test.ts`). Commands import it dynamically, when they serve.
 * @module
 */
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
