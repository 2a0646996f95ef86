import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Envelope, errorTypes, failure, success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { mcpContentMetaKey } from '../client/call-result.js';
import { toCallToolResult } from './tool-result.js';

const meta = { correlation_id: 'c-1', tool: 'fi_media', duration_ms: 1.5 };

const media = [
  { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
  { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
  { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'a' } },
  { type: 'resource_link', uri: 'file:///report.pdf', name: 'report.pdf' },
  { type: 'text', text: 'the envelope already says this' },
  // Malformed: an image without data, and something that is no content block at all.
  { type: 'image', mimeType: 'image/png' },
  'not a block',
];

const envelopes: [string, Envelope][] = [
  ['a success with nested data', { ...success({ rows: [{ id: 1, tags: ['a'] }], next: null }), meta }],
  ['a success with no meta', success('plain text')],
  ['a success carrying media', { ...success('one of each'), meta: { ...meta, [mcpContentMetaKey]: media } }],
  ...errorTypes.map((type): [string, Envelope] => [
    `a ${type} failure`,
    { ...failure(type, { userMessage: `It failed: ${type}.` }), meta },
  ]),
];

// The gateway registers its tools/call handler past the SDK `Server`'s result check (see
// `createMcpGateway`): every result it can build must be one the schema accepts unchanged.
describe('toCallToolResult', () => {
  it.each(envelopes)('builds a valid MCP result, unchanged by the schema, from %s', (_, envelope) => {
    for (const echo of [false, true]) {
      const result = toCallToolResult(envelope, echo);
      const parsed = CallToolResultSchema.safeParse(result);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(parsed.data).toEqual(result);
      expect(result.isError).toBe(!envelope.ok);
    }
  });

  it('passes only well-formed non-text media on, after the envelope’s own text block', () => {
    const result = toCallToolResult({
      ...success('one of each'),
      meta: { ...meta, [mcpContentMetaKey]: media },
    });
    expect(result.content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource_link',
    ]);
    expect(JSON.stringify(result.structuredContent)).not.toContain(mcpContentMetaKey);
  });
});
