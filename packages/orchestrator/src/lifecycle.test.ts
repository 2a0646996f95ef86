import { describe, expect, it } from 'vitest';
import { createCountingAgent, createTestStatusSource } from '../test/support.js';
import { createOrchestrator } from './orchestrator.js';

const subject = 'user-1';

describe('lifecycle', () => {
  it('starts agents in parallel; one that fails is reported down and the others serve', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    let healthyStarted = false;
    orchestrator.register(
      createCountingAgent({
        id: 'broken',
        tools: [{ name: 'broken_tool' }],
        initialize: async () => {
          throw new Error('could not spawn server with token ghp_abcdefghijklmnopqrstuvwxyz0123');
        },
      }),
    );
    orchestrator.register(
      createCountingAgent({
        id: 'healthy',
        initialize: async () => {
          healthyStarted = true;
        },
      }),
    );
    await orchestrator.start();
    expect(healthyStarted).toBe(true);
    const health = await orchestrator.health();
    expect(health.status).toBe('degraded');
    expect(health.agents.healthy).toMatchObject({ status: 'up' });
    expect(health.agents.broken).toMatchObject({ status: 'down' });
    expect(health.agents.broken?.detail).toContain('could not spawn server');
    expect(health.agents.broken?.detail).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');
    expect(await orchestrator.execute('broken_tool', { text: 'x' }, { subject })).toMatchObject({
      error_type: 'tool_unavailable',
    });
    expect(await orchestrator.execute('count_echo', { text: 'x' }, { subject })).toMatchObject({ ok: true });
  });

  it('does not let an agent whose start hangs hold up the others; it joins when it finally starts', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource(), startTimeoutMs: 50 });
    let finishStart: () => void = () => undefined;
    orchestrator.register(
      createCountingAgent({
        id: 'slow',
        tools: [{ name: 'slow_tool' }],
        initialize: () =>
          new Promise<void>((resolve) => {
            finishStart = resolve;
          }),
      }),
    );
    orchestrator.register(createCountingAgent({ id: 'healthy' }));
    await orchestrator.start();
    expect(await orchestrator.health('slow')).toMatchObject({
      status: 'down',
      detail: 'did not start within 50 ms',
    });
    expect(await orchestrator.execute('count_echo', { text: 'x' }, { subject })).toMatchObject({ ok: true });
    expect(await orchestrator.execute('slow_tool', { text: 'x' }, { subject })).toMatchObject({
      error_type: 'tool_unavailable',
    });
    finishStart();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await orchestrator.health('slow')).toMatchObject({ status: 'up' });
  });

  it('stops agents (its tools become unavailable) and starts them again', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    let shutdowns = 0;
    orchestrator.register(
      createCountingAgent({
        shutdown: async () => {
          shutdowns += 1;
        },
      }),
    );
    await orchestrator.start();
    await orchestrator.stopAgent('counting');
    expect(shutdowns).toBe(1);
    expect(await orchestrator.health('counting')).toMatchObject({ status: 'stopped' });
    expect(await orchestrator.execute('count_echo', { text: 'x' }, { subject })).toMatchObject({
      error_type: 'tool_unavailable',
    });
    expect(await orchestrator.startAgent('counting')).toMatchObject({ status: 'up' });
    expect(await orchestrator.execute('count_echo', { text: 'x' }, { subject })).toMatchObject({ ok: true });
  });

  it('stopAgent rejects with agent_shutdown_failed when the shutdown throws; the agent is stopped all the same', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(
      createCountingAgent({
        shutdown: async () => {
          throw new Error('socket already closed');
        },
      }),
    );
    await orchestrator.start();
    await expect(orchestrator.stopAgent('counting')).rejects.toMatchObject({
      code: 'agent_shutdown_failed',
      message: 'The agent "counting" failed to shut down: socket already closed',
    });
    expect(await orchestrator.health('counting')).toMatchObject({ status: 'stopped' });
    // A second stop has nothing left to fail.
    await expect(orchestrator.stopAgent('counting')).resolves.toBeUndefined();
  });

  it('stop() shuts every agent down even when one hangs past the stop limit', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource(), stopTimeoutMs: 50 });
    let politeStopped = false;
    orchestrator.register(
      createCountingAgent({
        id: 'hangs',
        tools: [{ name: 'hang_tool' }],
        shutdown: () => new Promise(() => {}),
      }),
    );
    orchestrator.register(
      createCountingAgent({
        id: 'polite',
        shutdown: async () => {
          politeStopped = true;
        },
      }),
    );
    await orchestrator.start();
    const report = await orchestrator.stop();
    expect(politeStopped).toBe(true);
    // The hung one is named in the report with seed 003's shutdown-failed code; the polite one is not.
    expect(report.failed).toEqual([
      {
        agentId: 'hangs',
        code: 'agent_shutdown_failed',
        detail: 'The agent "hangs" did not shut down within 50 ms.',
      },
    ]);
    const health = await orchestrator.health();
    expect(health).toMatchObject({
      status: 'down',
      agents: { hangs: { status: 'stopped' }, polite: { status: 'stopped' } },
    });
  });

  it('a health probe that takes too long reports down with a reason', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource(), healthTimeoutMs: 50 });
    orchestrator.register(
      createCountingAgent({
        id: 'slow',
        tools: [{ name: 'slow_tool' }],
        health: () => new Promise(() => {}),
      }),
    );
    orchestrator.register(createCountingAgent({ id: 'fast' }));
    await orchestrator.start();
    const health = await orchestrator.health();
    expect(health.agents.slow).toMatchObject({ status: 'down', detail: 'health probe timed out' });
    expect(health.agents.fast).toMatchObject({ status: 'up' });
    expect(typeof health.agents.fast?.latencyMs).toBe('number');
  });

  it('a throwing health probe reports down', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(
      createCountingAgent({
        health: async () => {
          throw new Error('boom');
        },
      }),
    );
    await orchestrator.start();
    expect(await orchestrator.health('counting')).toMatchObject({
      status: 'down',
      detail: 'health probe failed',
    });
  });

  it('an agent registered after start is started and serves', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    await orchestrator.start();
    orchestrator.register(createCountingAgent({ id: 'late' }));
    expect(await orchestrator.startAgent('late')).toMatchObject({ status: 'up' });
    expect(await orchestrator.execute('count_echo', { text: 'x' }, { subject })).toMatchObject({ ok: true });
  });

  it('tools of a remote agent discovered at initialize are routed', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent({ id: 'remote', tools: [] });
    const initialize = agent.initialize;
    agent.initialize = async () => {
      await initialize();
      agent.setTools([{ ...createCountingAgent().tools()[0]!, name: 'remote_found' }]);
    };
    orchestrator.register(agent);
    await orchestrator.start();
    expect(orchestrator.getTool('remote_found')).toBeDefined();
    expect(await orchestrator.execute('remote_found', { text: 'x' }, { subject })).toMatchObject({
      ok: true,
    });
  });

  it('unregister frees the tool names', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(createCountingAgent({ id: 'one' }));
    await orchestrator.unregister('one');
    orchestrator.register(createCountingAgent({ id: 'two' }));
    expect(orchestrator.listAgents().map((agent) => agent.id)).toEqual(['two']);
    await expect(orchestrator.stopAgent('one')).rejects.toMatchObject({ code: 'agent_not_found' });
  });
});
