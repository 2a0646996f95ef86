import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatusSource } from '@patchbay/connector/ports';
import { createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpStdioServerConfig } from './config.js';
import { childServerTimeoutMs, controllableConfig } from './controllable-fixture.js';
import { createMcpAgent, type McpAgentOptions } from './mcp-agent.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

// Stand-in status source: MCP tools are not gated by connector status.
const emptyStatusSource: StatusSource = {
  load: async () => ({ connections: [], disabledConnectorIds: [], rateLimitedUntil: {} }),
  markRateLimited: async () => undefined,
  markInvalidCredentials: async () => undefined,
};

const orchestrators: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(orchestrators.splice(0).map((orchestrator) => orchestrator.stop()));
});

async function orchestratorWith(config: McpStdioServerConfig, options: McpAgentOptions = {}) {
  const orchestrator = createOrchestrator({ statusSource: emptyStatusSource });
  orchestrators.push(orchestrator);
  const agent = createMcpAgent(config, options);
  orchestrator.register(agent);
  await orchestrator.startAgent(agent.id);
  return { orchestrator, agent };
}

describe('MCP agents behind the orchestrator gate', () => {
  it('runs read-only tools of an untrusted server and holds the others for approval', async () => {
    const { orchestrator } = await orchestratorWith(controllableConfig('untrusted', { prefix: 'u' }));
    expect(await orchestrator.execute('u_echo', { text: 'hi' }, { subject: 'alice' })).toMatchObject({
      ok: true,
      data: 'hi',
    });
    expect(await orchestrator.execute('u_fail', { message: 'x' }, { subject: 'alice' })).toMatchObject({
      ok: false,
      error_type: 'approval_required',
    });
    expect(await orchestrator.execute('u_delete_everything', {}, { subject: 'alice' })).toMatchObject({
      ok: false,
      error_type: 'approval_required',
    });
  });

  it('holds even read-only tools of a trusted server configured with requireApproval', async () => {
    const { orchestrator, agent } = await orchestratorWith(
      controllableConfig('guarded', { prefix: 'g', trust: true, requireApproval: true }),
    );
    expect(agent.manifest().requiresApproval).toBe(true);
    expect(await orchestrator.execute('g_echo', { text: 'hi' }, { subject: 'alice' })).toMatchObject({
      ok: false,
      error_type: 'approval_required',
    });
  });

  it('answers a call within one budget, the server timeout: a timed-out read is not retried past it', async () => {
    const { orchestrator } = await orchestratorWith(
      controllableConfig('slow', { trust: true, prefix: 's', timeout: 200 }),
      { retryDelayMs: 20 },
    );
    // Not 2 × 200 + 20: an MCP host waiting on the gateway must hear the answer within the budget.
    expect(orchestrator.getTool('s_slow_once')).toMatchObject({ timeoutMs: 200 });
    expect(await orchestrator.execute('s_slow_once', {}, { subject: 'alice' })).toMatchObject({
      ok: false,
      error_type: 'timeout',
      retryable: true,
    });
    // The timeout envelope is retryable: the caller's next call is answered.
    expect(await orchestrator.execute('s_slow_once', {}, { subject: 'alice' })).toMatchObject({
      ok: true,
      data: 'answered on call 2',
    });
    // A write is not retried after a timeout: its deadline is the server timeout.
    expect(await orchestrator.execute('s_hang', {}, { subject: 'alice' })).toMatchObject({
      ok: false,
      error_type: 'timeout',
    });
  });

  it('runs write tools of a trusted server, still holds destructive ones, and validates arguments first', async () => {
    const { orchestrator } = await orchestratorWith(
      controllableConfig('trusted', { trust: true, prefix: 't' }),
    );
    expect(
      await orchestrator.execute('t_fail', { message: 'tool said no' }, { subject: 'alice' }),
    ).toMatchObject({
      ok: false,
      error_type: 'upstream_error',
      user_message: 'tool said no',
    });
    expect(await orchestrator.execute('t_delete_everything', {}, { subject: 'alice' })).toMatchObject({
      error_type: 'approval_required',
    });
    expect(await orchestrator.execute('t_echo', {}, { subject: 'alice' })).toMatchObject({
      ok: false,
      error_type: 'needs_input',
    });
  });

  it('routes tools added by list_changed and answers tool_unavailable once the server crashed', async () => {
    const { orchestrator, agent } = await orchestratorWith(controllableConfig('live', { trust: true }), {
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    expect(await orchestrator.execute('add_tool', { name: 'late_tool' }, { subject: 'alice' })).toMatchObject(
      { ok: true },
    );
    await vi.waitFor(() => expect(orchestrator.getTool('late_tool')).toBeDefined(), {
      timeout: childServerTimeoutMs,
    });
    expect(await orchestrator.execute('late_tool', { text: 'x' }, { subject: 'alice' })).toMatchObject({
      ok: true,
      data: 'late_tool: x',
    });

    await orchestrator.execute('crash', {}, { subject: 'alice' });
    await vi.waitFor(() => expect(agent.status).toBe('down'), { timeout: childServerTimeoutMs });
    expect(await orchestrator.execute('echo', { text: 'x' }, { subject: 'alice' })).toMatchObject({
      ok: false,
      error_type: 'tool_unavailable',
    });
    expect(await orchestrator.health(agent.id)).toMatchObject({ status: 'down' });
  });

  it('serves a server that was down at start once it comes up, without a restart', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-boot-'));
    const crashFlag = join(directory, 'crash-on-start');
    await writeFile(crashFlag, '');
    try {
      const { orchestrator, agent } = await orchestratorWith(
        controllableConfig('late', { trust: true, env: { CONTROLLABLE_CRASH_IF_FILE: crashFlag } }),
        { retryDelayMs: 10, reconnect: { initialDelayMs: 50, maxDelayMs: 200 } },
      );
      expect(await orchestrator.execute('echo', { text: 'x' }, { subject: 'alice' })).toMatchObject({
        ok: false,
        error_type: 'tool_unavailable',
      });
      expect(await orchestrator.health(agent.id)).toMatchObject({ status: 'down' });
      await rm(crashFlag);
      await vi.waitFor(() => expect(orchestrator.getTool('echo')).toBeDefined(), {
        timeout: childServerTimeoutMs,
        interval: 50,
      });
      expect(await orchestrator.execute('echo', { text: 'late' }, { subject: 'alice' })).toMatchObject({
        ok: true,
        data: 'late',
      });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
