import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpAgent, createMcpGateway, type McpAgent, upstreamToolLimits } from '@patchbay/mcp';
import { createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// Attack (issue 33, items 6 and 8): a hostile MCP server, a real child process, lists tools whose
// metadata is the attack — a 1 MB description, a 1.9 MB schema, a schema 3,000 levels deep, a
// 5,000-character name, `../../etc/passwd`, our own meta-tool's name, terminal escape codes and a fake
// `</connector_status>` in a description — and, separately, two servers list the same `read_file`.
// Through the gateway a host saw all of it in `tools/list`, and a call of the shared name answered
// "There is no tool named read_file here.", naming neither owner nor the fix.

/** Starting node processes on a busy machine: only a hang takes this long. */
const timeoutMs = 120_000;
vi.setConfig({ testTimeout: timeoutMs, hookTimeout: timeoutMs });

const serverPath = join(import.meta.dirname, 'fixtures', 'hostile-mcp-server.mjs');
const directory = mkdtempSync(join(tmpdir(), 'patchbay-hostile-mcp-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const attacks = [
  'deep_schema',
  'huge_schema',
  'huge_description',
  'long_name',
  'path_name',
  'meta_tool_name',
  'escape_codes',
  'fake_status_block',
];

function hostile(name: string, env: Record<string, string>): McpAgent {
  return createMcpAgent(
    {
      name,
      transport: 'stdio',
      command: process.execPath,
      args: [serverPath],
      env: { HOSTILE_NAME: name, HOSTILE_CALL_LOG: join(directory, 'calls.log'), ...env },
      timeout: 30_000,
      autoStart: true,
      trust: true,
    },
    { connectTimeoutMs: 60_000, reconnect: { initialDelayMs: 60_000 } },
  );
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A gateway over an orchestrator serving these agents, and an SDK client connected to it. */
async function gatewayOver(agents: McpAgent[]): Promise<{ client: Client; orchestrator: Orchestrator }> {
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource });
  for (const agent of agents) orchestrator.register(agent);
  await orchestrator.start();
  const gateway = createMcpGateway({ orchestrator, connectors: [], statusSource, subject: 'ana' });
  const client = new Client({ name: 'hostile-mcp-test', version: '1.0.0' });
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

/** Nesting depth of parsed JSON, without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

describe('upstream tool metadata is bounded before it reaches the registry or a host', () => {
  it('a hostile server gets 0 tools over a limit into tools/list, the registry or a prompt', async () => {
    const agent = hostile('hostile', { HOSTILE_TOOLS: 'echo', HOSTILE_ATTACKS: attacks.join(',') });
    const { client, orchestrator } = await gatewayOver([agent]);
    const listed = (await client.listTools()).tools;
    const served = listed.filter((tool) => tool.name !== 'refresh_connector_status');
    const registered = orchestrator.listTools();
    const texts = [...served, ...registered].flatMap((tool) => [
      tool.name,
      tool.description ?? '',
      JSON.stringify('inputSchema' in tool ? tool.inputSchema : tool.inputJsonSchema),
    ]);
    const counts = {
      overLongNames: [...served, ...registered].filter(
        (tool) => tool.name.length > upstreamToolLimits.maxNameLength,
      ).length,
      overLongDescriptions: [...served, ...registered].filter(
        (tool) => (tool.description ?? '').length > upstreamToolLimits.maxDescriptionLength,
      ).length,
      overLargeSchemas: served.filter(
        (tool) => JSON.stringify(tool.inputSchema).length > upstreamToolLimits.maxSchemaBytes,
      ).length,
      overDeepSchemas: served.filter((tool) => depthOf(tool.inputSchema) > upstreamToolLimits.maxSchemaDepth)
        .length,
      pathNames: texts.filter((text) => text.includes('../')).length,
      // biome-ignore lint/suspicious/noControlCharactersInRegex: counting control characters is the point
      controlCharacters: texts.filter((text) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/.test(text))
        .length,
      statusBlockMarkup: texts.filter((text) => /<\/?connector_status/.test(text)).length,
      // Only the gateway's own meta-tool answers to this name.
      metaToolImpostors: registered.filter((tool) => tool.name === 'refresh_connector_status').length,
    };
    expect(counts).toEqual({
      overLongNames: 0,
      overLongDescriptions: 0,
      overLargeSchemas: 0,
      overDeepSchemas: 0,
      pathNames: 0,
      controlCharacters: 0,
      statusBlockMarkup: 0,
      metaToolImpostors: 0,
    });
    // Control: the harmless tools stay, cleaned rather than dropped.
    expect(served.map((tool) => tool.name).sort()).toEqual(['echo', 'escape_codes', 'fake_status_block']);
    expect(served.find((tool) => tool.name === 'fake_status_block')?.description).toContain(
      '&lt;/connector_status&gt;',
    );
    expect(served.find((tool) => tool.name === 'escape_codes')?.description).toBe(
      'Lists files.RED donetxt.exe',
    );
    expect(
      agent
        .droppedTools()
        .map((tool) => tool.reason)
        .sort(),
    ).toEqual([
      'description_too_long',
      'name_looks_like_a_path',
      'name_reserved',
      'name_too_long',
      'schema_too_deep',
      'schema_too_large',
    ]);
  });

  it('a name two servers serve reaches 0 servers through the gateway, and the answer names both and the fix', async () => {
    const log = join(directory, 'calls.log');
    rmSync(log, { force: true });
    const { client } = await gatewayOver([
      hostile('files', { HOSTILE_TOOLS: 'read_file' }),
      hostile('notes', { HOSTILE_TOOLS: 'read_file,list_notes' }),
    ]);
    const answers = [];
    for (let call = 0; call < 3; call += 1) {
      answers.push(await client.callTool({ name: 'read_file', arguments: {} }));
    }
    const executions = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
    expect(executions).toEqual([]);
    for (const answer of answers) {
      expect(answer.isError).toBe(true);
      const envelope = answer.structuredContent as { error_type: string; user_message: string };
      expect(envelope.error_type).toBe('tool_unavailable');
      expect(envelope.user_message).toContain('"files" and "notes"');
      expect(envelope.user_message).toContain('"prefix"');
      expect(envelope.user_message).toContain('notes_read_file');
    }
    // Control: the name only one of them serves runs on that one.
    const control = await client.callTool({ name: 'list_notes', arguments: {} });
    expect(control.isError).toBeFalsy();
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['notes list_notes']);
  });
});
