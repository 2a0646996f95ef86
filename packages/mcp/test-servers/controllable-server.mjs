#!/usr/bin/env node
// A test stand-in MCP server whose behaviour the tests steer: echo, hang, crash, change its own
// tool list, report an environment variable, answer with isError or with a result of any size. Plain JS so `node` runs it
// without a build. Run it directly for stdio; import `createControllableServer` to serve it
// in-process (streamable HTTP tests).
//
// Environment flags (read at start):
//   CONTROLLABLE_CRASH_ON_START=1        exit with code 3 before speaking MCP
//   CONTROLLABLE_CRASH_IF_FILE=/path     the same, but only while that file exists
//   CONTROLLABLE_START_LOG=/path         append one line per process start (counts spawns)
//   CONTROLLABLE_DESTRUCTIVE_TOOLS=a,b   mark these extra tool names destructive when added
//   CONTROLLABLE_NAME=name               server name reported in `initialize`
//   CONTROLLABLE_FORGED_LINES=1          also serve `forged_lines` (stdio only): malformed lines on stdout,
//                                        one forging the call's answer, before the real answer
import { appendFileSync, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const text = (value) => ({ content: [{ type: 'text', text: value }] });

/**
 * Builds the controllable server. `onCrash` replaces `process.exit` so an in-process copy can
 * simulate a crash without ending the test runner.
 */
export function createControllableServer(options = {}) {
  const environment = options.environment ?? process.env;
  const onCrash = options.onCrash ?? ((code) => process.exit(code));
  const destructiveExtras = new Set(
    (environment.CONTROLLABLE_DESTRUCTIVE_TOOLS ?? '').split(',').filter(Boolean),
  );
  const server = new McpServer({ name: environment.CONTROLLABLE_NAME ?? 'controllable', version: '1.0.0' });
  const extraTools = new Map();

  server.registerTool(
    'echo',
    {
      description: 'Returns the given text unchanged.',
      inputSchema: { text: z.string().describe('Text to send back') },
      annotations: { readOnlyHint: true },
    },
    async ({ text: value }) => text(value),
  );

  server.registerTool(
    'echo_structured',
    {
      description: 'Returns the given text as structured content.',
      inputSchema: { text: z.string().describe('Text to send back') },
      outputSchema: { text: z.string(), length: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ text: value }) => ({
      content: [{ type: 'text', text: JSON.stringify({ text: value, length: value.length }) }],
      structuredContent: { text: value, length: value.length },
    }),
  );

  server.registerTool(
    'big_result',
    {
      description: 'Answers with a text of the given number of characters (for result size limits).',
      inputSchema: { characters: z.number().int().min(0).describe('How many characters to return') },
      annotations: { readOnlyHint: true },
    },
    async ({ characters }) => text('x'.repeat(characters)),
  );

  server.registerTool(
    'busy',
    {
      description: 'Blocks the server for the given time, pings included, then answers.',
      inputSchema: { milliseconds: z.number().int().min(0).describe('How long to block') },
      annotations: { readOnlyHint: true },
    },
    async ({ milliseconds }) => {
      // A synchronous wait, like a server serialising a huge answer: nothing else is read meanwhile.
      const end = Date.now() + milliseconds;
      while (Date.now() < end) {
        // busy on purpose
      }
      return text('done');
    },
  );

  server.registerTool(
    'hang',
    { description: 'Never answers.', inputSchema: {} },
    // A promise with no timer behind it: the call waits forever, yet the process can still exit.
    () => new Promise(() => {}),
  );

  let slowOnceCalls = 0;
  server.registerTool(
    'slow_once',
    {
      description:
        'Never answers its first call; answers every later one (for the one-retry-on-timeout rule).',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () => {
      slowOnceCalls += 1;
      return slowOnceCalls === 1 ? new Promise(() => {}) : text(`answered on call ${slowOnceCalls}`);
    },
  );

  server.registerTool(
    'crash',
    {
      description: 'Ends the server process at once, without answering.',
      inputSchema: { code: z.number().int().optional().describe('Exit code') },
    },
    async ({ code }) => {
      onCrash(code ?? 1);
      return new Promise(() => {});
    },
  );

  server.registerTool(
    'fail',
    {
      description: 'Answers with an isError result carrying the given message.',
      inputSchema: { message: z.string().describe('Error text') },
    },
    async ({ message }) => ({ ...text(message), isError: true }),
  );

  server.registerTool(
    'read_env',
    {
      description: 'Reports the value of an environment variable of the server process.',
      inputSchema: { name: z.string().describe('Variable name') },
      annotations: { readOnlyHint: true },
    },
    async ({ name }) => ({
      content: [{ type: 'text', text: environment[name] ?? '(unset)' }],
      structuredContent: { name, value: environment[name] ?? null },
    }),
  );

  server.registerTool(
    'delete_everything',
    {
      description: 'Pretends to delete everything; annotated destructive.',
      inputSchema: {},
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    async () => text('deleted nothing: this is a test server'),
  );

  server.registerTool(
    'report_meta',
    {
      description: 'Reports the `_meta` object the client sent with this call.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async (_args, extra) => ({
      content: [{ type: 'text', text: JSON.stringify(extra._meta ?? {}) }],
      structuredContent: { meta: extra._meta ?? {} },
    }),
  );

  server.registerTool(
    'add_tool',
    {
      description: 'Adds an echo-like tool with the given name; the server then sends tools/list_changed.',
      inputSchema: {
        name: z.string().describe('Name of the new tool'),
        destructive: z.boolean().optional().describe('Annotate the new tool as destructive'),
      },
    },
    async ({ name, destructive }) => {
      if (extraTools.has(name)) return { ...text(`tool ${name} exists`), isError: true };
      const isDestructive = destructive === true || destructiveExtras.has(name);
      const registered = server.registerTool(
        name,
        {
          description: `Added at run time: answers "${name}: <text>".`,
          inputSchema: { text: z.string().optional().describe('Text to include') },
          annotations: isDestructive ? { readOnlyHint: false, destructiveHint: true } : undefined,
        },
        async ({ text: value }) => text(`${name}: ${value ?? ''}`),
      );
      extraTools.set(name, registered);
      return text(`added ${name}`);
    },
  );

  // Over stdio, when asked for (CONTROLLABLE_FORGED_LINES=1): lines that are not exactly one JSON-RPC
  // message, some shaped as this call's own answer, written straight to stdout before the real answer.
  if (options.rawOutput) {
    const rawOutput = options.rawOutput;
    server.registerTool(
      'forged_lines',
      {
        description: 'Writes malformed lines, one forging this call\'s answer, then answers "real".',
        inputSchema: {},
        annotations: { readOnlyHint: true },
      },
      async (_args, extra) => {
        const forged = { content: [{ type: 'text', text: 'forged' }] };
        for (const line of [
          'not json at all',
          '[{"jsonrpc":"2.0","id":1,"result":{}}]',
          '"a string"',
          JSON.stringify({ id: extra.requestId, result: forged }),
          JSON.stringify({ jsonrpc: '2.0', id: extra.requestId, result: forged, extra: true }),
          JSON.stringify({ jsonrpc: '2.0', id: extra.requestId, result: 'forged' }),
        ]) {
          rawOutput.write(`${line}\n`);
        }
        return text('real');
      },
    );
  }

  server.registerTool(
    'remove_tool',
    {
      description: 'Removes a tool added by add_tool; the server then sends tools/list_changed.',
      inputSchema: { name: z.string().describe('Name of the tool to remove') },
    },
    async ({ name }) => {
      const registered = extraTools.get(name);
      if (!registered) return { ...text(`no added tool named ${name}`), isError: true };
      registered.remove();
      extraTools.delete(name);
      return text(`removed ${name}`);
    },
  );

  return server;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  if (process.env.CONTROLLABLE_START_LOG)
    appendFileSync(process.env.CONTROLLABLE_START_LOG, `${process.pid}\n`);
  const crashFile = process.env.CONTROLLABLE_CRASH_IF_FILE;
  if (process.env.CONTROLLABLE_CRASH_ON_START === '1' || (crashFile && existsSync(crashFile)))
    process.exit(3);
  const server = createControllableServer(
    process.env.CONTROLLABLE_FORGED_LINES === '1' ? { rawOutput: process.stdout } : {},
  );
  await server.connect(new StdioServerTransport());
}
