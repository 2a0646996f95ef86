#!/usr/bin/env node
// Test stand-in MCP server for `patchbay servers` and `patchbay call`: one read-only echo tool over stdio.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description: 'Returns the given text unchanged.',
    inputSchema: { text: z.string().describe('Text to send back') },
    annotations: { readOnlyHint: true },
  },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
