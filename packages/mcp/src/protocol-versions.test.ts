import { readFileSync } from 'node:fs';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { describe, expect, it } from 'vitest';
import { createMcpGateway } from './gateway/mcp-gateway.js';

// The README's "MCP protocol versions" section is the promise; this holds it to the SDK in use.

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## MCP protocol versions'),
  readme.indexOf('## Differences from the seeds'),
);
const versionsIn = (text: string) => [...text.matchAll(/`(\d{4}-\d{2}-\d{2})`/g)].map((match) => match[1]);

/** The protocol version the gateway answers to an `initialize` that asks for `requested`. */
async function negotiated(requested: string): Promise<unknown> {
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource, connectors: [] });
  await orchestrator.start();
  const gateway = createMcpGateway({ orchestrator, connectors: [], statusSource, subject: 'user-1' });
  const [host, server] = InMemoryTransport.createLinkedPair();
  const answer = new Promise<JSONRPCMessage>((resolve) => {
    host.onmessage = resolve;
  });
  await gateway.connect(server);
  await host.start();
  await host.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: requested, capabilities: {}, clientInfo: { name: 'host', version: '1.0.0' } },
  });
  const message = (await answer) as { result?: { protocolVersion?: unknown } };
  await host.close();
  await gateway.close();
  await orchestrator.stop();
  return message.result?.protocolVersion;
}

describe('MCP protocol versions', () => {
  it('the README lists exactly the versions the SDK negotiates, the latest first', () => {
    const latestLine = section.split('\n- ')[1] ?? '';
    expect(versionsIn(latestLine)).toEqual([LATEST_PROTOCOL_VERSION]);
    expect(versionsIn(section)).toEqual([...SUPPORTED_PROTOCOL_VERSIONS]);
  });

  it('the gateway answers each listed version with itself, and an unknown one with the latest', async () => {
    for (const version of versionsIn(section)) expect(await negotiated(version ?? '')).toBe(version);
    expect(await negotiated('1999-01-01')).toBe(LATEST_PROTOCOL_VERSION);
  });
});
