#!/usr/bin/env node
// The upstream MCP server (stdio) behind the gateway in the conformance run: the tools the MCP
// conformance suite's server scenarios call, with the answers its scenario descriptions ask for.
// The gateway relays them, so a passing tool scenario means the gateway passed the result through,
// not that it answered something of its own. Plain JS so `node` runs it without a build.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

// A 1×1 PNG and an empty WAV file: real formats, a few bytes.
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const wav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const none = { type: 'object', properties: {} };
const read = { readOnlyHint: true };

const tools = [
  { name: 'test_simple_text', description: 'Answers a simple text.', inputSchema: none, annotations: read },
  { name: 'test_image_content', description: 'Answers an image.', inputSchema: none, annotations: read },
  { name: 'test_audio_content', description: 'Answers audio.', inputSchema: none, annotations: read },
  {
    name: 'test_embedded_resource',
    description: 'Answers an embedded resource.',
    inputSchema: none,
    annotations: read,
  },
  {
    name: 'test_multiple_content_types',
    description: 'Answers text, image and a resource.',
    inputSchema: none,
    annotations: read,
  },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50, 100 of 100.',
    inputSchema: none,
    annotations: read,
  },
  {
    name: 'test_error_handling',
    description: 'Always answers an error.',
    inputSchema: none,
    annotations: read,
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    annotations: read,
  },
];

const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const text = (value) => ({ type: 'text', text: value });

const server = new Server(
  { name: 'conformance-reference', version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  switch (request.params.name) {
    case 'test_simple_text':
      return { content: [text('This is a simple text response for testing.')] };
    case 'test_image_content':
      return { content: [{ type: 'image', data: png, mimeType: 'image/png' }] };
    case 'test_audio_content':
      return { content: [{ type: 'audio', data: wav, mimeType: 'audio/wav' }] };
    case 'test_embedded_resource':
      return {
        content: [
          {
            type: 'resource',
            resource: {
              uri: 'test://embedded-resource',
              mimeType: 'text/plain',
              text: 'This is an embedded resource content.',
            },
          },
        ],
      };
    case 'test_multiple_content_types':
      return {
        content: [
          text('Multiple content types test:'),
          { type: 'image', data: png, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: '{"test":"data","value":123}',
            },
          },
        ],
      };
    case 'test_tool_with_progress': {
      const token = request.params._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 100 },
          });
        }
        await pause(50);
      }
      return { content: [text('Progress tool completed')] };
    }
    case 'test_error_handling':
      return { content: [text('This tool intentionally returns an error for testing')], isError: true };
    case 'json_schema_2020_12_tool':
      return { content: [text('ok')] };
    default:
      return { content: [text(`Unknown tool ${request.params.name}`)], isError: true };
  }
});
await server.connect(new StdioServerTransport());
