import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createControllableServer, hostileToolNames } from '../../test-servers/controllable-server.mjs';

// The controllable test server's switches the eval suite relies on: tools named as model APIs refuse
// (issue 33 item 7 driven through a turn) and a log of every call that reached the server (what a
// write that crashed the server really sent).

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

async function connected(environment: Record<string, string>) {
  const server = createControllableServer({ environment, onCrash: () => {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

describe('the controllable test server', () => {
  it('serves the hostile names only when asked, each answering with its own name', async () => {
    const plain = await connected({});
    const plainNames = (await plain.client.listTools()).tools.map((tool) => tool.name);
    expect(plainNames.some((name) => hostileToolNames.includes(name))).toBe(false);
    await plain.close();

    const hostile = await connected({ CONTROLLABLE_HOSTILE_NAMES: '1' });
    const names = (await hostile.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining([...hostileToolNames]));
    expect(hostileToolNames.filter((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toEqual([]);
    for (const name of hostileToolNames) {
      const result = await hostile.client.callTool({ name, arguments: { text: 'hi' } });
      expect(result.structuredContent).toEqual({ tool: name, text: 'hi' });
    }
    await hostile.close();
  });

  it('logs every call as it arrives, a call it never answers included', async () => {
    const home = mkdtempSync(join(tmpdir(), 'controllable-log-'));
    homes.push(home);
    const log = join(home, 'calls.log');
    const { client, close } = await connected({ CONTROLLABLE_CALL_LOG: log });
    await client.callTool({ name: 'echo', arguments: { text: 'a' } });
    // `crash` never answers (onCrash does nothing here): the call is logged all the same.
    void client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined);
    await expect.poll(() => readFileSync(log, 'utf8')).toBe('echo\ncrash\n');
    await close();
  });
});
