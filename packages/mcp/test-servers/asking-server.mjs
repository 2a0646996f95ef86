#!/usr/bin/env node
// A test MCP server (stdio) that asks its user things, the ways real servers do: a tool error in
// seed 001's "Question: …" form, form-mode elicitation (one that asks for a recipient, one that
// asks for a secret), and prompts. Plain JS so `node` runs it without a build.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const server = new McpServer({ name: 'asking', version: '1.0.0' });

server.registerTool(
  'send_report',
  {
    description: 'Sends a report; asks "Question: …" when the recipient is missing.',
    inputSchema: {
      title: z.string().describe('Report title'),
      to: z.string().optional().describe('Recipient'),
    },
  },
  async ({ title, to }) =>
    to
      ? text(`sent "${title}" to ${to}`)
      : { ...text('Question: Who should receive the report? Please give an email address.'), isError: true },
);

server.registerTool(
  'plain_failure',
  {
    description: 'Fails with an ordinary error text that contains question words but is no question.',
    inputSchema: {},
  },
  async () => ({
    ...text('What went wrong: please provide a valid config; the upstream is missing.'),
    isError: true,
  }),
);

server.registerTool(
  'send_elicited',
  {
    description: 'Asks the user for the recipient by elicitation, then sends.',
    inputSchema: { title: z.string().describe('Report title') },
  },
  async ({ title }) => {
    const answer = await server.server.elicitInput({
      mode: 'form',
      message: 'Who should receive the report?',
      requestedSchema: {
        type: 'object',
        properties: { recipient: { type: 'string', description: 'Email address of the recipient' } },
        required: ['recipient'],
      },
    });
    if (answer.action !== 'accept')
      return { ...text(`the user did not answer (${answer.action})`), isError: true };
    return text(`sent "${title}" to ${answer.content.recipient}`);
  },
);

server.registerTool(
  'connect_account',
  { description: 'Asks the user for an API key by elicitation.', inputSchema: {} },
  async () => {
    const answer = await server.server.elicitInput({
      mode: 'form',
      message: 'Paste your API key to connect.',
      requestedSchema: {
        type: 'object',
        properties: { api_key: { type: 'string', title: 'API key' } },
        required: ['api_key'],
      },
    });
    if (answer.action !== 'accept') return { ...text(`cannot connect (${answer.action})`), isError: true };
    return text('connected');
  },
);

server.registerTool(
  'client_capabilities',
  { description: 'Reports the capabilities the client declared.', inputSchema: {} },
  async () => ({
    content: [{ type: 'text', text: JSON.stringify(server.server.getClientCapabilities() ?? {}) }],
    structuredContent: { capabilities: server.server.getClientCapabilities() ?? {} },
  }),
);

server.registerPrompt(
  'summarize',
  {
    title: 'Summarize',
    description: 'Summarize a topic in three sentences.',
    argsSchema: { topic: z.string().describe('What to summarize') },
  },
  ({ topic }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic} in three sentences.` } }],
  }),
);

server.registerPrompt('house_rules', { description: 'The rules every reply follows.' }, () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Be brief. Cite sources.' } }],
}));

await server.connect(new StdioServerTransport());
