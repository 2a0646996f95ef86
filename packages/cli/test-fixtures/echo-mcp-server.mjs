#!/usr/bin/env node
// Test stand-in MCP server for `patchbay servers`, `call` and `mcp`: one read-only echo tool over stdio,
// plus a write tool `save_note` when ECHO_WITH_NOTE=1.
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
if (process.env.ECHO_WITH_NOTE === '1') {
  // A write tool (no annotations), so an untrusted server's call needs approval.
  server.registerTool(
    'save_note',
    {
      description: 'Pretends to save a note; answers with what it saved.',
      inputSchema: { note: z.string().describe('The note') },
    },
    async ({ note }) => ({ content: [{ type: 'text', text: `saved: ${note}` }] }),
  );
}
await server.connect(new StdioServerTransport());
