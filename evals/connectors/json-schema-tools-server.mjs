#!/usr/bin/env node
// A stand-in MCP server (stdio) whose tools are declared by JSON Schema only, with no zod schema
// behind them, as most real MCP servers' are: `$ref` (`#`, `#/$defs/…`, `#/definitions/…`, escaped
// segments), `allOf` / `anyOf` / `oneOf`, `default`s, arrays of objects, `additionalProperties` and
// `patternProperties`. Every tool is a write (not annotated read-only): it appends its name to the
// call log as the call arrives (`server_calls` counts what reached the server) and answers with how
// many times it ran and the arguments it received. A scenario asks for it with `json_schema_tools:
// true` (evals/connectors/mcp-servers.mjs), which serves these tools instead of the controllable
// server's.
//
// Environment (read at start):
//   CONTROLLABLE_NAME=name       server name reported in `initialize`
//   CONTROLLABLE_CALL_LOG=/path  append the tool's name, one line per call received
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// The MCP SDK is a dependency of @patchbay/mcp, not of the evals: load it from there.
const require = createRequire(new URL('../../packages/mcp/package.json', import.meta.url));
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const write = { readOnlyHint: false, destructiveHint: false };

/** The tools, as `tools/list` sends them: each input schema exactly as written here. */
export const jsonSchemaTools = [
  {
    name: 'upsert_record',
    description:
      'Writes a record: its id, a mode (default merge), a priority (default normal), an owner and tags.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Record id' },
        mode: { type: 'string', enum: ['merge', 'replace'], default: 'merge' },
        priority: { $ref: '#/$defs/priority' },
        owner: { $ref: '#/$defs/person' },
        tags: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, color: { type: 'string', default: 'grey' } },
            required: ['name'],
          },
        },
      },
      required: ['id'],
      $defs: {
        priority: { type: 'string', enum: ['low', 'normal', 'high'], default: 'normal' },
        person: {
          type: 'object',
          properties: { name: { type: 'string' }, team: { type: 'string', default: 'core' } },
          required: ['name'],
        },
      },
    },
  },
  {
    name: 'link_records',
    description:
      'Links a record to a parent record (itself a record of this shape), a source and a target, with a note or null.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        note: { type: ['string', 'null'] },
        parent: { $ref: '#' },
        source: { $ref: '#/$defs/a~1b' },
        target: { $ref: '#/definitions/c~0d' },
      },
      required: ['id'],
      $defs: { 'a/b': { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
      definitions: {
        'c~d': { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    },
  },
  {
    name: 'configure',
    description:
      'Configures a device: id, size (default 1), color and spec (w, h), declared across allOf/anyOf/oneOf.',
    inputSchema: {
      type: 'object',
      // `spec` is declared in two branches, each with a key of its own: the tool reads both.
      allOf: [
        {
          properties: {
            id: { type: 'string' },
            // Declared here too, with no default: the default is the anyOf branch's.
            size: { type: 'integer' },
            spec: { type: 'object', properties: { w: { type: 'integer' } } },
          },
          required: ['id'],
        },
      ],
      anyOf: [{ properties: { size: { type: 'integer', default: 1 } } }],
      oneOf: [
        {
          properties: {
            color: { type: 'string' },
            spec: { type: 'object', properties: { h: { type: 'integer' } } },
          },
        },
      ],
    },
  },
  {
    name: 'set_labels',
    description: 'Sets labels on a record: any further key is a label name, its value the label.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: { type: 'string' },
    },
  },
  {
    name: 'set_headers',
    description: 'Sets headers on a record: any further key starting with x- is a header.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      patternProperties: { '^x-': { type: 'string' } },
    },
  },
  {
    name: 'strict_note',
    description: 'Writes a note; no key other than id and text is accepted.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string' }, text: { type: 'string' } },
      required: ['id', 'text'],
      additionalProperties: false,
    },
  },
  {
    // As Python MCP servers declare a defaulted enum or model field (pydantic 2.9 and later: `$ref`
    // with a sibling `default`, no `allOf` wrapper).
    name: 'create_ticket',
    description: 'Creates a ticket with a title and a priority (default normal).',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        priority: { $ref: '#/$defs/Priority', default: 'normal' },
      },
      required: ['title'],
      $defs: { Priority: { type: 'string', enum: ['low', 'normal', 'high'] } },
    },
  },
].map((tool) => ({ ...tool, annotations: write }));

/** Names of the tools above (the scenarios' `lab_<name>`). */
export const jsonSchemaToolNames = jsonSchemaTools.map((tool) => tool.name);

/** Builds the server; `environment` as `process.env`. */
export function createJsonSchemaToolsServer(environment = process.env) {
  const server = new Server(
    { name: environment.CONTROLLABLE_NAME ?? 'json-schema-tools', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  const runs = new Map();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: jsonSchemaTools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: received = {} } = request.params;
    if (environment.CONTROLLABLE_CALL_LOG) appendFileSync(environment.CONTROLLABLE_CALL_LOG, `${name}\n`);
    if (!jsonSchemaToolNames.includes(name)) {
      return { content: [{ type: 'text', text: `no tool named ${name}` }], isError: true };
    }
    const run = (runs.get(name) ?? 0) + 1;
    runs.set(name, run);
    const result = { tool: name, run, received };
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  });
  return server;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await createJsonSchemaToolsServer().connect(new StdioServerTransport());
}
