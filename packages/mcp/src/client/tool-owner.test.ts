import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { callContext, childServerTimeoutMs, controllableConfig } from './controllable-fixture.js';
import { createMcpAgent, type McpAgent } from './mcp-agent.js';
import { startToolOwner } from './tool-owner.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

let directory: string;
const agents: McpAgent[] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-owner-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.shutdown()));
});

/** A controllable server that appends a line to its own log each time its process starts. */
function logged(name: string, overrides: Parameters<typeof controllableConfig>[1] = {}) {
  const log = join(directory, `${name}-${Math.random().toString(36).slice(2)}.log`);
  const agent = createMcpAgent(
    controllableConfig(name, { env: { CONTROLLABLE_START_LOG: log }, ...overrides }),
    { retryDelayMs: 10, reconnect: { initialDelayMs: 60_000 } },
  );
  agents.push(agent);
  return {
    agent,
    starts: async () => (existsSync(log) ? (await readFile(log, 'utf8')).trim().split('\n').length : 0),
  };
}

function missing(name: string): McpAgent {
  const agent = createMcpAgent(controllableConfig(name, { command: join(directory, 'no-such-binary') }), {
    retryDelayMs: 10,
    reconnect: { initialDelayMs: 60_000 },
  });
  agents.push(agent);
  return agent;
}

describe('startToolOwner', () => {
  it('starts only the server whose prefix the tool carries', async () => {
    const first = logged('first', { prefix: 'first' });
    const second = logged('second', { prefix: 'second' });
    const found = await startToolOwner([first.agent, second.agent], 'second_echo');
    expect(found.owner?.id).toBe('second');
    // Safety property: zero processes started for the server that does not own the tool.
    expect(await first.starts()).toBe(0);
    expect(await second.starts()).toBe(1);
    expect(await found.owner?.execute('second_echo', { text: 'hi' }, callContext())).toMatchObject({
      ok: true,
      data: 'hi',
    });
  });

  it('refuses a name two unprefixed servers serve: neither is left running, both are named', async () => {
    const first = logged('first-twin');
    const second = logged('second-twin');
    const found = await startToolOwner([first.agent, second.agent], 'echo');
    expect(found.owner).toBeUndefined();
    expect(found.owners.map((agent) => agent.id)).toEqual(['first-twin', 'second-twin']);
    expect([first.agent.status, second.agent.status]).toEqual(['stopped', 'stopped']);
  });

  it('never starts a disabled server after an auto-started owner (the gateway does not start it either)', async () => {
    const owner = logged('owner');
    const disabled = logged('disabled', { autoStart: false });
    const found = await startToolOwner([owner.agent, disabled.agent], 'echo');
    expect(found.owner?.id).toBe('owner');
    expect(found.skipped.map((agent) => agent.id)).toEqual(['disabled']);
    expect(await disabled.starts()).toBe(0);
  });

  it('gets past a server whose binary is missing and leaves it stopped', async () => {
    const broken = missing('broken');
    const owner = logged('owner2');
    const found = await startToolOwner([broken, owner.agent], 'echo');
    expect(found.owner?.id).toBe('owner2');
    expect(found.tried.map((agent) => agent.id)).toEqual(['broken']);
    expect(broken.status).toBe('stopped');
    expect(await found.owner?.execute('echo', { text: 'through' }, callContext())).toMatchObject({
      ok: true,
      data: 'through',
    });
  });

  it('answers no owner for a tool no server has, leaving every server stopped', async () => {
    const one = logged('one');
    const found = await startToolOwner([one.agent, missing('gone')], 'no_such_tool');
    expect(found.owner).toBeUndefined();
    expect(found.tried.map((agent) => agent.status)).toEqual(['stopped', 'stopped']);
  });
});
