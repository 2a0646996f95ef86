#!/usr/bin/env node
// A test stand-in MCP server (stdio) for the gateway's fidelity tests: answers with every content
// block type, reports progress, declares a task-only tool, can start late. Plain JS so `node` runs
// it without a build. Built on the low-level SDK Server so the tool list is exactly what is written here.
//
// Environment flags (read at start):
//   FIDELITY_START_DELAY_MS=n   wait n ms before speaking MCP (a server that is slow to come up)
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A 1×1 transparent PNG and a few bytes of "audio": real base64, small. */
const tinyPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const tinyWav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

/** The content the `media` tool answers, in order. */
const mediaContent = [
  { type: 'text', text: 'one of each' },
  { type: 'image', data: tinyPng, mimeType: 'image/png' },
  { type: 'audio', data: tinyWav, mimeType: 'audio/wav' },
  { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'a note' } },
  {
    type: 'resource',
    resource: { uri: 'file:///blob.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' },
  },
  { type: 'resource_link', uri: 'file:///report.pdf', name: 'report.pdf', mimeType: 'application/pdf' },
];

const empty = { type: 'object', properties: {} };
const tools = [
  {
    name: 'media',
    description: 'Answers one content block of every type.',
    inputSchema: empty,
    annotations: { readOnlyHint: true },
  },
  {
    name: 'count_up',
    description: 'Reports progress 1, 2, 3 of 3, then answers.',
    inputSchema: empty,
    annotations: { readOnlyHint: true },
  },
  { name: 'hang', description: 'Never answers.', inputSchema: empty, annotations: { readOnlyHint: true } },
  {
    name: 'batch_job',
    description: 'Runs only as a task.',
    inputSchema: empty,
    execution: { taskSupport: 'required' },
  },
];

const delayMs = Number(process.env.FIDELITY_START_DELAY_MS ?? 0);
if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));

const server = new Server({ name: 'fidelity', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name } = request.params;
  if (name === 'media') return { content: mediaContent };
  if (name === 'count_up') {
    const token = request.params._meta?.progressToken;
    for (let step = 1; step <= 3; step += 1) {
      // Work between reports, as a long operation has: the SDK client handles notifications a
      // promise step later than responses, so reports read in one chunk with the answer are lost.
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: 3, message: `step ${step}` },
        });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { content: [{ type: 'text', text: 'counted' }] };
  }
  if (name === 'hang') return new Promise(() => {});
  return { content: [{ type: 'text', text: `no tool ${name}` }], isError: true };
});
await server.connect(new StdioServerTransport());
