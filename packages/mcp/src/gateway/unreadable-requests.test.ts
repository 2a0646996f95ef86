import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMcpGateway } from './mcp-gateway.js';

const token = 'ghp_notAKeyButLooksLikeOne1234567890';

describe('a request the gateway cannot read, over stdio', () => {
  it('is answered -32600 under its id, logged without its content, and the next request is served', async () => {
    const logged: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
    const statusSource = createInMemoryStatusSource();
    const orchestrator = createOrchestrator({ statusSource, connectors: [] });
    const gateway = createMcpGateway({
      orchestrator,
      connectors: [],
      statusSource,
      subject: 'user-1',
      logger,
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const answers: unknown[] = [];
    stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) answers.push(JSON.parse(line));
    });
    await gateway.connect(new StdioServerTransport(stdin, stdout));
    try {
      const params = { name: 'x', arguments: { pin: 'hunter2' }, _meta: token };
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params })}\n`);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' })}\n`);
      // A busy machine may stall the streams for a while: poll long, the answer usually comes at once.
      await expect
        .poll(() => answers, { timeout: 15_000 })
        .toContainEqual({ jsonrpc: '2.0', id: 8, result: {} });
      // The host hears about its request at once instead of waiting for its own timeout.
      expect(answers).toContainEqual({
        jsonrpc: '2.0',
        id: 7,
        error: expect.objectContaining({ code: ErrorCode.InvalidRequest }),
      });
      expect(JSON.stringify(answers)).not.toMatch(/hunter2|ghp_/);
      const lines = logged.filter((line) => line.includes('MCP message not served'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('Unknown message type');
      expect(lines.join('\n')).not.toMatch(/hunter2|ghp_/);
    } finally {
      await gateway.close();
    }
  });
});
