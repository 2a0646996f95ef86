import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseMcpServersConfig } from './config.js';
import { callContext, childServerTimeoutMs, processAlive } from './controllable-fixture.js';
import { createMcpAgent, type McpAgent } from './mcp-agent.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

// The published reference server, written by the MCP maintainers rather than by us.
const require = createRequire(import.meta.url);
const everythingPackage = require.resolve('@modelcontextprotocol/server-everything/package.json');
const everythingBin = join(
  dirname(everythingPackage),
  (require(everythingPackage) as { bin: Record<string, string> }).bin['mcp-server-everything'] as string,
);

describe('@modelcontextprotocol/server-everything over stdio', () => {
  let agent: McpAgent | undefined;
  let pid: number | undefined;
  afterAll(async () => {
    await agent?.shutdown();
    if (pid !== undefined)
      await vi.waitFor(() => expect(processAlive(pid as number)).toBe(false), {
        timeout: childServerTimeoutMs,
      });
  });

  it('discovers its echo tool and calls it', async () => {
    const [config] = parseMcpServersConfig({
      mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'], prefix: true } },
    }).servers;
    agent = createMcpAgent(config as NonNullable<typeof config>);
    await agent.initialize();
    pid = agent.pid;
    // Seed 003's manifest: the name the server gave itself, the capability groups it announced, and
    // the configured approval rule (none here).
    const manifest = agent.manifest();
    expect(manifest.name).toMatch(/everything/i);
    expect(manifest.capabilities).toEqual(expect.arrayContaining(['prompts', 'resources', 'tools']));
    expect(manifest.requiresApproval).toBeUndefined();
    const echo = manifest.tools.find((tool) => tool.name === 'everything_echo');
    expect(echo).toMatchObject({
      mcpName: 'echo',
      effect: 'read',
      inputJsonSchema: { properties: { message: { type: 'string' } } },
    });
    expect(await agent.execute('everything_echo', { message: 'from patchbay' }, callContext())).toMatchObject(
      {
        ok: true,
        data: 'Echo: from patchbay',
      },
    );
  });
});
