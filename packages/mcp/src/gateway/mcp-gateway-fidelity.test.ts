import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childServerTimeoutMs } from '../client/controllable-fixture.js';
import { createMcpAgent } from '../client/mcp-agent.js';
import { createMcpGateway, defaultCallDeadlineMs, type McpGatewayOptions } from './mcp-gateway.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

const fidelityServerPath = fileURLToPath(new URL('../../test-servers/fidelity-server.mjs', import.meta.url));
const subject = 'user-1';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/**
 * A host connected to a gateway whose orchestrator serves the fidelity server (a real child
 * process, tools prefixed `fi_`), registered after start as `patchbay mcp` does, so it connects in
 * the background while the host is already talking to the gateway.
 */
async function connectHost(
  options: { startDelayMs?: number; timeout?: number; gateway?: Partial<McpGatewayOptions> } = {},
): Promise<{ client: Client; orchestrator: Orchestrator }> {
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource, connectors: [] });
  await orchestrator.start();
  orchestrator.register(
    createMcpAgent({
      name: 'fidelity',
      transport: 'stdio',
      command: process.execPath,
      args: [fidelityServerPath],
      env: { FIDELITY_START_DELAY_MS: String(options.startDelayMs ?? 0) },
      prefix: 'fi',
      timeout: options.timeout ?? 20_000,
      autoStart: true,
      trust: true,
    }),
  );
  const gateway = createMcpGateway({
    orchestrator,
    connectors: [],
    statusSource,
    subject,
    refreshIntervalMs: 0,
    startupWaitMs: childServerTimeoutMs,
    ...options.gateway,
  });
  const client = new Client({ name: 'fidelity-host', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverTransport);
  await client.connect(clientTransport);
  cleanups.push(async () => {
    await client.close();
    await gateway.close();
    await orchestrator.stop();
  });
  return { client, orchestrator };
}

const names = (result: { tools: { name: string }[] }) => result.tools.map((tool) => tool.name);

describe('gateway fidelity', () => {
  it('holds the first tools/list until a server that is starting is up', async () => {
    const { client } = await connectHost({ startDelayMs: 1_000 });
    // Asked at once, as a host does right after initialize: the server's tools are already there.
    expect(names(await client.listTools())).toEqual([
      'fi_count_up',
      'fi_hang',
      'fi_media',
      'refresh_connector_status',
    ]);
  });

  it('answers a call of a tool of a server still starting with a retryable "starting" envelope', async () => {
    const { client } = await connectHost({ startDelayMs: 8_000, gateway: { startupWaitMs: 0 } });
    const result = await client.callTool({ name: 'fi_media', arguments: {} });
    expect(result.structuredContent).toMatchObject({
      ok: false,
      error_type: 'tool_unavailable',
      retryable: true,
      retry_after_s: 5,
    });
    expect(JSON.stringify(result.structuredContent)).toContain('still starting the MCP server fidelity');
  });

  it('does not list task-only tools, which it could never call', async () => {
    const { client } = await connectHost();
    expect(names(await client.listTools())).not.toContain('fi_batch_job');
  });

  it('refuses a call that asks for a task, since it declares no tasks capability', async () => {
    const { client } = await connectHost();
    await client.listTools();
    const asked = client.request(
      { method: 'tools/call', params: { name: 'fi_media', arguments: {}, task: { ttl: 60_000 } } },
      CallToolResultSchema,
    );
    await expect(asked).rejects.toThrow(/does not support task creation/);
  });

  it('answers a malformed request with -32602 (invalid params), naming what is wrong', async () => {
    const { client } = await connectHost();
    await client.listTools();
    const malformed: [string, Record<string, unknown>][] = [
      ['tools/call', { name: 42, arguments: {} }],
      ['tools/call', { name: 'fi_media', arguments: 'not an object' }],
      ['tools/list', { cursor: 5 }],
      ['resources/read', {}],
      ['prompts/get', { name: ['connector_status'] }],
      ['tools/call', { name: 'fi_media', arguments: 'ghp_notAKeyButLooksLikeOne1234567890' }],
    ];
    for (const [method, params] of malformed) {
      const error = await client
        .request({ method, params } as never, CallToolResultSchema)
        .catch((caught: unknown) => caught);
      expect(error, method).toBeInstanceOf(McpError);
      expect((error as McpError).code, method).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message, method).toContain(`Invalid ${method} request`);
      // Paths and what was expected, never the value sent.
      expect((error as McpError).message, method).not.toMatch(/ghp_|connector_status|not an object/);
    }
  });

  it('answers a request the SDK cannot read (a `_meta` that is not an object) with -32600, logged without its content', async () => {
    const logged: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
    const { client } = await connectHost({ gateway: { logger } });
    await client.listTools();
    const token = 'ghp_notAKeyButLooksLikeOne1234567890';
    const unreadable = client.request(
      {
        method: 'tools/call',
        params: { name: 'fi_media', arguments: { pin: 'hunter2' }, _meta: token },
      } as never,
      CallToolResultSchema,
      // Long enough that a timeout would fail the test: the answer must come from the gateway.
      { timeout: 10_000 },
    );
    await expect(unreadable).rejects.toMatchObject({ code: ErrorCode.InvalidRequest });
    const lines = logged.filter((line) => line.includes('MCP message not served'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Unknown message type');
    expect(lines.join('\n')).not.toMatch(/hunter2|ghp_/);
    // The connection goes on: the next call is served.
    const next = await client.callTool({ name: 'fi_media', arguments: {} });
    expect(next.structuredContent).toMatchObject({ ok: true });
  });

  it('refuses a tools/list cursor it never issued with -32602', async () => {
    const { client } = await connectHost();
    const error = await client.listTools({ cursor: 'bogus' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    await expect(client.listPrompts({ cursor: 'bogus' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.listResources({ cursor: 'bogus' })).rejects.toMatchObject({ code: -32602 });
  });

  it('passes images, audio, resources and links through as MCP content, not base64 in the envelope', async () => {
    const { client } = await connectHost();
    await client.listTools();
    const result = await client.callTool({ name: 'fi_media', arguments: {} });
    const content = result.content as { type: string; text?: string }[];
    expect(content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource',
      'resource_link',
    ]);
    expect(content[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    });
    expect(content[4]).toEqual({
      type: 'resource',
      resource: { uri: 'file:///blob.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' },
    });
    expect(content[5]).toEqual({
      type: 'resource_link',
      uri: 'file:///report.pdf',
      name: 'report.pdf',
      mimeType: 'application/pdf',
    });
    // The envelope the model reads describes the payloads; no base64 in it or the structured content.
    const envelopeText = content[0]?.text ?? '';
    expect(envelopeText).toContain('"size_bytes":');
    expect(envelopeText).toContain('one of each');
    for (const serialized of [envelopeText, JSON.stringify(result.structuredContent)]) {
      expect(serialized).not.toContain('iVBORw0KGgo');
      expect(serialized).not.toContain('AAECAw==');
    }
    expect(result.structuredContent).toMatchObject({ ok: true });
  });

  it('forwards the upstream server’s progress notifications under the host’s token', async () => {
    const { client } = await connectHost();
    await client.listTools();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'fi_count_up', arguments: {} }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(result.structuredContent).toMatchObject({ ok: true, data: 'counted' });
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('answers within its call deadline with a timeout envelope, below the hosts’ 60 s request timeout', async () => {
    expect(defaultCallDeadlineMs).toBeLessThan(60_000);
    const { client } = await connectHost({ gateway: { callDeadlineMs: 300 } });
    await client.listTools();
    const result = await client.callTool({ name: 'fi_hang', arguments: {} });
    expect(result.structuredContent).toMatchObject({ ok: false, error_type: 'timeout', retryable: true });
    expect(JSON.stringify(result.structuredContent)).toContain('within 300 ms');
  });
});
