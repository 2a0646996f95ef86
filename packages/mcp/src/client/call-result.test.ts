import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';
import { abortedByCaller, classifyCallError, envelopeFromError, envelopeFromResult } from './call-result.js';
import { effectFromAnnotations, toAgentTool } from './tool-mapping.js';

describe('envelopeFromResult', () => {
  it('prefers structuredContent, then joined text, then the raw content', () => {
    expect(
      envelopeFromResult({ content: [{ type: 'text', text: '{}' }], structuredContent: { a: 1 } }, 's'),
    ).toEqual({
      ok: true,
      data: { a: 1 },
    });
    expect(
      envelopeFromResult(
        {
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
        's',
      ),
    ).toEqual({
      ok: true,
      data: 'one\ntwo',
    });
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    expect(envelopeFromResult({ content: [{ type: 'text', text: 'a picture' }, image] }, 's')).toEqual({
      ok: true,
      data: [
        { type: 'text', text: 'a picture' },
        { type: 'image', mime_type: 'image/png', size_bytes: 3 },
      ],
      meta: { mcp_content: [image] },
    });
  });

  it('describes binary payloads for the model and keeps every non-text block whole in meta', () => {
    const blocks = [
      { type: 'audio' as const, data: 'AAAAAA==', mimeType: 'audio/wav' },
      {
        type: 'resource' as const,
        resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' },
      },
      { type: 'resource' as const, resource: { uri: 'file:///b.bin', blob: 'AAA=' } },
      { type: 'resource_link' as const, uri: 'file:///c.md', name: 'c.md', mimeType: 'text/markdown' },
    ];
    const envelope = envelopeFromResult({ content: blocks }, 's');
    expect(envelope).toEqual({
      ok: true,
      data: [
        { type: 'audio', mime_type: 'audio/wav', size_bytes: 4 },
        { type: 'resource', uri: 'file:///a.txt', mime_type: 'text/plain', text: 'hello' },
        { type: 'resource', uri: 'file:///b.bin', mime_type: undefined, size_bytes: 2 },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c.md', mime_type: 'text/markdown' },
      ],
      meta: { mcp_content: blocks },
    });
    // Nothing base64 reaches the data a model reads.
    expect(JSON.stringify(envelope.ok && envelope.data)).not.toContain('AAAAAA');
  });

  it('keeps media beside structured content', () => {
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    expect(envelopeFromResult({ content: [image], structuredContent: { a: 1 } }, 's')).toEqual({
      ok: true,
      data: { a: 1 },
      meta: { mcp_content: [image] },
    });
  });

  it('turns isError into an error envelope keeping the tool text for the model', () => {
    const envelope = envelopeFromResult(
      { content: [{ type: 'text', text: 'quota exceeded for project' }], isError: true },
      's',
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'upstream_error',
      user_message: 'quota exceeded for project',
    });
  });

  it('reads the SDK-formatted protocol code of an isError result', () => {
    const invalid = envelopeFromResult(
      {
        content: [
          { type: 'text', text: 'MCP error -32602: Input validation error: expected string at text' },
        ],
        isError: true,
      },
      's',
    );
    expect(invalid).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    const unknown = envelopeFromResult(
      { content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }], isError: true },
      's',
    );
    expect(unknown).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
  });
});

describe('envelopeFromError', () => {
  it('maps protocol error codes', () => {
    const cases: Array<[number, string]> = [
      [ErrorCode.InvalidParams, 'invalid_arguments'],
      [ErrorCode.MethodNotFound, 'tool_unavailable'],
      [ErrorCode.InternalError, 'upstream_error'],
      [ErrorCode.RequestTimeout, 'timeout'],
      [ErrorCode.ConnectionClosed, 'network_error'],
    ];
    for (const [code, type] of cases) {
      const error = new McpError(code, 'problem');
      expect(envelopeFromError(error, classifyCallError(error, false), 's')).toMatchObject({
        error_type: type,
      });
    }
  });

  it('does not blame the arguments when the server broke its own output schema', () => {
    const error = new McpError(
      ErrorCode.InvalidParams,
      "Structured content does not match the tool's output schema: x",
    );
    expect(envelopeFromError(error, classifyCallError(error, false), 's')).toMatchObject({
      error_type: 'upstream_error',
    });
  });

  it('classifies a caller abort apart from a timeout', () => {
    const error = new McpError(ErrorCode.RequestTimeout, 'AbortError');
    expect(classifyCallError(error, true)).toBe('cancelled');
    expect(classifyCallError(error, false)).toBe('timeout');
  });

  it('answers a cancelled call `cancelled`, never retryable, a write saying it may have happened', () => {
    const error = new DOMException('stop', 'AbortError');
    expect(envelopeFromError(error, 'cancelled', 's')).toEqual({
      ok: false,
      error_type: 'cancelled',
      user_message: 'The call was cancelled before it finished.',
      retryable: false,
    });
    expect(envelopeFromError(error, 'cancelled', 's', false)).toMatchObject({
      error_type: 'cancelled',
      retryable: false,
      user_message: expect.stringContaining('may still have taken effect'),
    });
    expect(envelopeFromError(error, 'timeout', 's')).toMatchObject({ error_type: 'timeout' });
  });

  it("tells the caller's cancel from the gate's deadline by the signal's reason", () => {
    expect(abortedByCaller(new AbortController().signal)).toBe(false);
    expect(abortedByCaller(AbortSignal.abort())).toBe(true);
    expect(abortedByCaller(AbortSignal.abort(new DOMException('stop', 'AbortError')))).toBe(true);
    expect(abortedByCaller(AbortSignal.abort('the user left'))).toBe(true);
    expect(abortedByCaller(AbortSignal.abort(new DOMException('x exceeded 50 ms', 'TimeoutError')))).toBe(
      false,
    );
  });
});

describe('tool mapping', () => {
  it('derives the effect from annotations', () => {
    expect(effectFromAnnotations({ readOnlyHint: true })).toBe('read');
    expect(effectFromAnnotations({ readOnlyHint: false, destructiveHint: true })).toBe('destructive');
    expect(effectFromAnnotations({ destructiveHint: false })).toBe('write');
    expect(effectFromAnnotations(undefined)).toBe('write');
  });

  it('prefixes names and keeps the server tool name for the call', () => {
    const tool = toAgentTool(
      {
        name: 'search',
        description: 'Search.',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      },
      { name: 'docs', prefix: 'docs', trust: true, timeout: 1000 },
    );
    expect(tool).toMatchObject({
      name: 'docs_search',
      mcpName: 'search',
      server: 'docs',
      trusted: true,
      effect: 'write',
      timeoutMs: 1000,
    });
    expect(tool.connectorId).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles from 0.5 s and stops at 30 s, jitter included', () => {
    const low = () => 0;
    const high = () => 0.999;
    expect(backoffDelay(0, undefined, low)).toBe(375);
    expect(backoffDelay(0, undefined, high)).toBeLessThanOrEqual(625);
    expect(backoffDelay(1, undefined, low)).toBe(750);
    expect(backoffDelay(20, undefined, high)).toBe(30_000);
    expect(backoffDelay(20, undefined, low)).toBe(22_500);
  });
});
