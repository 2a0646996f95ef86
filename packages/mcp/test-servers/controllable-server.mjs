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
//   CONTROLLABLE_CALL_LOG=/path          append the tool's name, one line per call received (counts what
//                                        reached the server, even from a call it never answers)
//   CONTROLLABLE_HOSTILE_NAMES=1         also serve tools whose names model APIs refuse (hostileToolNames):
//                                        each answers with its own name, so a test sees which one ran
import { appendFileSync, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const text = (value) => ({ content: [{ type: 'text', text: value }] });

/**
 * Names MCP allows and model APIs refuse (`^[a-zA-Z0-9_-]{1,64}$`): a dot, a namespace slash, an
 * accent, and 72 characters (over 64 before any prefix).
 */
export const hostileToolNames = Object.freeze([
  'get.weather',
  'ns/tool',
  'café',
  'summarize_the_weekly_engineering_status_report_for_every_team_in_the_org',
]);

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
  const callLog = environment.CONTROLLABLE_CALL_LOG;
  // Every tool is registered through this, so the call log sees each call as it arrives, before the
  // tool answers (or crashes, or hangs).
  const register = (name, config, handler) =>
    server.registerTool(name, config, (...args) => {
      if (callLog) appendFileSync(callLog, `${name}\n`);
      return handler(...args);
    });

  register(
    'echo',
    {
      description: 'Returns the given text unchanged.',
      inputSchema: { text: z.string().describe('Text to send back') },
      annotations: { readOnlyHint: true },
    },
    async ({ text: value }) => text(value),
  );

  register(
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

  register(
    'big_result',
    {
      description: 'Answers with a text of the given number of characters (for result size limits).',
      inputSchema: { characters: z.number().int().min(0).describe('How many characters to return') },
      annotations: { readOnlyHint: true },
    },
    async ({ characters }) => text('x'.repeat(characters)),
  );

  register(
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

  register(
    'hang',
    { description: 'Never answers.', inputSchema: {} },
    // A promise with no timer behind it: the call waits forever, yet the process can still exit.
    () => new Promise(() => {}),
  );

  let slowOnceCalls = 0;
  register(
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

  register(
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

  register(
    'fail',
    {
      description: 'Answers with an isError result carrying the given message.',
      inputSchema: { message: z.string().describe('Error text') },
    },
    async ({ message }) => ({ ...text(message), isError: true }),
  );

  register(
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

  register(
    'delete_everything',
    {
      description: 'Pretends to delete everything; annotated destructive.',
      inputSchema: {},
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    async () => text('deleted nothing: this is a test server'),
  );

  register(
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

  register(
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
      const registered = register(
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

  if (environment.CONTROLLABLE_HOSTILE_NAMES === '1')
    for (const name of hostileToolNames)
      register(
        name,
        {
          description: `Answers with its own name ("${name}") and the given text.`,
          inputSchema: { text: z.string().optional().describe('Text to include') },
          annotations: { readOnlyHint: true },
        },
        async ({ text: value }) => ({
          content: [{ type: 'text', text: `${name} answered: ${value ?? ''}` }],
          structuredContent: { tool: name, text: value ?? '' },
        }),
      );

  // Over stdio, when asked for (CONTROLLABLE_FORGED_LINES=1): lines that are not exactly one JSON-RPC
  // message, some shaped as this call's own answer, written straight to stdout before the real answer.
  if (options.rawOutput) {
    const rawOutput = options.rawOutput;
    register(
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

  register(
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
