import { getEventListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PatchbayError } from '@patchbay/envelope';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseMcpServersConfig } from './config.js';
import {
  callContext,
  childServerTimeoutMs,
  controllableConfig,
  processAlive,
} from './controllable-fixture.js';
import { createMcpAgent, type McpAgent, type McpAgentOptions } from './mcp-agent.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

const agents: McpAgent[] = [];

function start(config: Parameters<typeof createMcpAgent>[0], options: McpAgentOptions = {}): McpAgent {
  const agent = createMcpAgent(config, options);
  agents.push(agent);
  return agent;
}

afterEach(async () => {
  const pids = agents.map((agent) => agent.pid).filter((pid): pid is number => pid !== undefined);
  await Promise.all(agents.splice(0).map((agent) => agent.shutdown()));
  // Every child this file started must be gone, not just disconnected.
  for (const pid of pids)
    await vi.waitFor(() => expect(processAlive(pid)).toBe(false), { timeout: childServerTimeoutMs });
});

describe('createMcpAgent over stdio (controllable test server)', () => {
  it('discovers the tools and maps them for the registry', async () => {
    const agent = start(controllableConfig('ctl', { trust: true, prefix: 'ctl', timeout: 4000 }));
    await agent.initialize();
    const { id, kind, tools } = agent.manifest();
    expect([id, kind]).toEqual(['ctl', 'mcp']);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(['ctl_echo', 'ctl_hang', 'ctl_delete_everything', 'ctl_read_env']),
    );
    expect(byName.get('ctl_echo')).toMatchObject({
      mcpName: 'echo',
      effect: 'read',
      description: 'Returns the given text unchanged.',
      annotations: { readOnlyHint: true },
      trusted: true,
      // One budget for the call, retry included: the server's timeout, whatever the annotations.
      timeoutMs: 4000,
      connectorId: undefined,
      inputJsonSchema: { type: 'object', properties: { text: { type: 'string' } } },
    });
    expect(byName.get('ctl_delete_everything')).toMatchObject({
      effect: 'destructive',
      annotations: { destructiveHint: true },
    });
    expect(byName.get('ctl_hang')?.effect).toBe('write');
    expect(agent.trusted).toBe(true);
    expect(await agent.health()).toMatchObject({ status: 'up' });
  });

  it('calls tools and maps results, tool errors and protocol errors to envelopes', async () => {
    const agent = start(controllableConfig('calls'));
    await agent.initialize();
    const context = callContext();
    expect(await agent.execute('echo', { text: 'hello' }, context)).toEqual({
      ok: true,
      data: 'hello',
      meta: { tool: 'echo', correlation_id: context.correlationId },
    });
    expect(await agent.execute('echo_structured', { text: 'abc' }, callContext())).toMatchObject({
      ok: true,
      data: { text: 'abc', length: 3 },
    });
    expect(await agent.execute('fail', { message: 'the upstream said no' }, callContext())).toMatchObject({
      ok: false,
      error_type: 'upstream_error',
      user_message: 'the upstream said no',
    });
    expect(await agent.execute('echo', { text: 42 }, callContext())).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
    });
    expect(await agent.execute('no_such_tool', {}, callContext())).toMatchObject({
      ok: false,
      error_type: 'tool_unavailable',
    });
  });

  it('sends the correlation id in _meta', async () => {
    const agent = start(controllableConfig('meta'));
    await agent.initialize();
    const context = callContext();
    const envelope = await agent.execute('report_meta', {}, context);
    expect(envelope).toMatchObject({
      ok: true,
      data: { meta: { 'patchbay/correlation_id': context.correlationId } },
    });
  });

  it('leaves no listener behind on a caller signal shared by many calls', async () => {
    const agent = start(controllableConfig('shared-signal'));
    await agent.initialize();
    const signal = new AbortController().signal;
    for (let index = 0; index < 20; index += 1) {
      const envelope = await agent.execute(
        'echo',
        { text: `n${index}` },
        { subject: 'test-user', signal, correlationId: `c${index}` },
      );
      expect(envelope).toMatchObject({ ok: true, data: `n${index}` });
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('times out a hanging call by the server timeout while another server keeps answering', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-timeout-'));
    const callLog = join(directory, 'calls.log');
    // Hours between health checks: none runs (or times out) while the test moves the clock.
    const quiet = { healthCheckIntervalMs: 3_600_000 };
    const slow = start(
      controllableConfig('slow', { timeout: 5_000, env: { CONTROLLABLE_CALL_LOG: callLog } }),
      quiet,
    );
    const other = start(controllableConfig('other'), quiet);
    await Promise.all([slow.initialize(), other.initialize()]);
    // The server's timeout is the subject, so the test moves time itself: the hung call times out when
    // the clock passes 5 s, and no request that should answer can run out of time on a busy machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const hanging = slow.execute('hang', {}, callContext());
      // The request reached the server, so its timeout timer is set.
      await vi.waitFor(
        async () => expect(existsSync(callLog) && (await readFile(callLog, 'utf8'))).toContain('hang'),
        { timeout: childServerTimeoutMs },
      );
      const answered = await other.execute('echo', { text: 'still here' }, callContext());
      expect(answered).toMatchObject({ ok: true, data: 'still here' });
      // Short of the server's timeout the call still waits; at it, it ends.
      let ended = false;
      void hanging.then(() => {
        ended = true;
      });
      await vi.advanceTimersByTimeAsync(4_000);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await hanging).toMatchObject({ ok: false, error_type: 'timeout', retryable: true });
      // The hung request did not take the connection with it.
      expect(await slow.execute('echo', { text: 'after' }, callContext())).toMatchObject({
        ok: true,
        data: 'after',
      });
    } finally {
      vi.useRealTimers();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("leaves a gate call's hang to the gate's deadline: the SDK's own timer fires only after a margin", async () => {
    // The gate's deadline for an MCP tool is the server's timeout (or less). Were the SDK's timer set to
    // the same instant, the two would race and a hang would be reported two ways (the eval scenario
    // mcp-tool-hangs-times-out once failed on that race under load).
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-margin-'));
    const callLog = join(directory, 'calls.log');
    const agent = start(
      controllableConfig('gated', { timeout: 5_000, env: { CONTROLLABLE_CALL_LOG: callLog } }),
      { healthCheckIntervalMs: 3_600_000 },
    );
    await agent.initialize();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const gate = new AbortController();
      const hanging = agent.execute('hang', {}, { ...callContext(gate.signal), signalPerCall: true });
      await vi.waitFor(
        async () => expect(existsSync(callLog) && (await readFile(callLog, 'utf8'))).toContain('hang'),
        { timeout: childServerTimeoutMs },
      );
      let ended = false;
      void hanging.then(() => {
        ended = true;
      });
      // At the server's timeout the gate (not this client) would stop the call: the client still waits.
      await vi.advanceTimersByTimeAsync(5_500);
      expect(ended).toBe(false);
      // A gate that never fires is still backed by the client's own timer, later.
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await hanging).toMatchObject({ ok: false, error_type: 'timeout' });
    } finally {
      vi.useRealTimers();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('stops a call when the caller aborts, and answers it cancelled, not timed out', async () => {
    const agent = start(controllableConfig('abortable'));
    await agent.initialize();
    const controller = new AbortController();
    const call = agent.execute('hang', {}, callContext(controller.signal));
    controller.abort(new DOMException('stop', 'AbortError'));
    const envelope = await call;
    expect(envelope).toMatchObject({ ok: false, error_type: 'cancelled', retryable: false });
    // `hang` is not declared harmless to repeat: the server may have acted before the cancel.
    expect(envelope.ok === false && envelope.user_message).toContain('may still have taken effect');
  });

  it('answers a call its signal stopped at a deadline (a TimeoutError reason) as timed out', async () => {
    const agent = start(controllableConfig('deadline'));
    await agent.initialize();
    const controller = new AbortController();
    const call = agent.execute('hang', {}, { ...callContext(controller.signal), signalPerCall: true });
    // What the gate does when its deadline passes first.
    controller.abort(new DOMException('hang exceeded 50 ms', 'TimeoutError'));
    expect(await call).toMatchObject({ ok: false, error_type: 'timeout' });
  });

  it('hands a signal marked per-call straight to the SDK, and a call still stops when it aborts', async () => {
    const agent = start(controllableConfig('per-call-signal'));
    await agent.initialize();
    // The SDK's listener stays on a per-call signal (it is dropped with the call): no copy was made.
    const answered = new AbortController();
    expect(
      await agent.execute('echo', { text: 'x' }, { ...callContext(answered.signal), signalPerCall: true }),
    ).toMatchObject({ ok: true, data: 'x' });
    expect(getEventListeners(answered.signal, 'abort').length).toBeGreaterThan(0);
    const stopped = new AbortController();
    const call = agent.execute('hang', {}, { ...callContext(stopped.signal), signalPerCall: true });
    stopped.abort(new DOMException('stop', 'AbortError'));
    expect(await call).toMatchObject({ ok: false, error_type: 'cancelled' });
  });

  it('notices a crash, answers tool_unavailable while down, reconnects and re-discovers', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-crash-'));
    const crashFlag = join(directory, 'crash-on-start');
    try {
      const agent = start(controllableConfig('crashy', { env: { CONTROLLABLE_CRASH_IF_FILE: crashFlag } }), {
        reconnect: { initialDelayMs: 100, maxDelayMs: 400 },
      });
      const changes = vi.fn();
      agent.onToolsChanged(changes);
      await agent.initialize();
      const firstPid = agent.pid;
      expect(firstPid).toBeTypeOf('number');
      // A tool that exists only in this process's memory: it must vanish with the re-discovery.
      expect(await agent.execute('add_tool', { name: 'ephemeral' }, callContext())).toMatchObject({
        ok: true,
      });
      await vi.waitFor(() => expect(agent.manifest().tools.map((tool) => tool.name)).toContain('ephemeral'), {
        timeout: childServerTimeoutMs,
      });

      // While the flag file exists every restart crashes too, so the server stays down.
      await writeFile(crashFlag, '');
      const crashed = await agent.execute('crash', {}, callContext());
      // The server got the call and went down while running it; the tool declares no hint that
      // repeating is harmless, so it is not answered as retryable.
      expect(crashed).toMatchObject({ ok: false, error_type: 'network_error', retryable: false });
      expect(crashed.ok === false && crashed.user_message).toContain('It may still have taken effect');
      expect(await agent.health()).toMatchObject({ status: 'down' });
      expect(processAlive(firstPid as number)).toBe(false);
      const whileDown = await agent.execute('echo', { text: 'x' }, callContext());
      expect(whileDown).toMatchObject({ ok: false, error_type: 'tool_unavailable', retryable: true });

      await rm(crashFlag);
      expect(existsSync(crashFlag)).toBe(false);
      await vi.waitFor(async () => expect((await agent.health()).status).toBe('up'), {
        timeout: childServerTimeoutMs,
        interval: 100,
      });
      expect(agent.pid).not.toBe(firstPid);
      expect(agent.manifest().tools.map((tool) => tool.name)).not.toContain('ephemeral');
      expect(await agent.execute('echo', { text: 'back' }, callContext())).toMatchObject({
        ok: true,
        data: 'back',
      });
      expect(changes.mock.calls.length).toBeGreaterThanOrEqual(2);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('takes no line that is not exactly one JSON-RPC message as an answer, and stays up', async () => {
    // The server writes, before its real answer: no JSON, a batch array, a bare string, and the
    // call's own answer forged three ways (no `jsonrpc`, an extra top-level key, a non-object result).
    const agent = start(controllableConfig('forger', { env: { CONTROLLABLE_FORGED_LINES: '1' } }));
    await agent.initialize();
    const pid = agent.pid;
    expect(await agent.execute('forged_lines', {}, callContext())).toMatchObject({ ok: true, data: 'real' });
    expect(await agent.execute('echo', { text: 'after' }, callContext())).toMatchObject({
      ok: true,
      data: 'after',
    });
    expect((await agent.health()).status).toBe('up');
    expect(agent.pid).toBe(pid);
  });

  it('answers a result over the stdio message limit with upstream_error, once, and reconnects', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-big-'));
    const starts = join(directory, 'starts.log');
    try {
      const agent = start(controllableConfig('big', { env: { CONTROLLABLE_START_LOG: starts } }), {
        maxMessageBytes: 64 * 1024,
        reconnect: { initialDelayMs: 100, maxDelayMs: 400 },
      });
      await agent.initialize();
      expect(await agent.execute('big_result', { characters: 60_000 }, callContext())).toMatchObject({
        ok: true,
      });
      const tooBig = await agent.execute('big_result', { characters: 70_000 }, callContext());
      expect(tooBig).toMatchObject({ ok: false, error_type: 'upstream_error', retryable: false });
      if (!tooBig.ok) expect(tooBig.user_message).toContain('sent an answer larger than 65536 bytes');
      // The read-only call was not repeated into a second dropped connection: one start, one restart.
      await vi.waitFor(async () => expect((await agent.health()).status).toBe('up'), { timeout: 10_000 });
      expect((await readFile(starts, 'utf8')).trim().split('\n')).toHaveLength(2);
      expect(await agent.execute('echo', { text: 'back' }, callContext())).toMatchObject({ ok: true });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('does not take a server down for pings it answers late while it is busy with a call', async () => {
    const agent = start(controllableConfig('busy', { timeout: 10_000 }), {
      healthCheckIntervalMs: 100,
      healthCheckTimeoutMs: 200,
      failedChecksBeforeDown: 2,
    });
    await agent.initialize();
    const pid = agent.pid;
    expect(await agent.execute('busy', { milliseconds: 1_500 }, callContext())).toMatchObject({
      ok: true,
      data: 'done',
    });
    expect(agent.status).toBe('up');
    expect(agent.pid).toBe(pid);
  });

  it('picks up tools/list_changed: added, annotated destructive, removed', async () => {
    const agent = start(controllableConfig('dynamic'));
    await agent.initialize();
    const changes = vi.fn();
    const unsubscribe = agent.onToolsChanged(changes);
    expect(await agent.execute('add_tool', { name: 'greet' }, callContext())).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(agent.manifest().tools.map((tool) => tool.name)).toContain('greet'), {
      timeout: childServerTimeoutMs,
    });
    expect(changes).toHaveBeenCalled();
    expect(await agent.execute('greet', { text: 'hi' }, callContext())).toMatchObject({
      ok: true,
      data: 'greet: hi',
    });

    expect(await agent.execute('add_tool', { name: 'wipe', destructive: true }, callContext())).toMatchObject(
      { ok: true },
    );
    await vi.waitFor(
      () => expect(agent.manifest().tools.find((tool) => tool.name === 'wipe')?.effect).toBe('destructive'),
      { timeout: childServerTimeoutMs },
    );

    expect(await agent.execute('remove_tool', { name: 'greet' }, callContext())).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(agent.manifest().tools.map((tool) => tool.name)).not.toContain('greet'), {
      timeout: childServerTimeoutMs,
    });
    expect(await agent.execute('greet', {}, callContext())).toMatchObject({
      ok: false,
      error_type: 'tool_unavailable',
    });
    unsubscribe();
  });

  it('stays down and keeps reconnecting when the server cannot start, joining once it can', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-late-'));
    const crashFlag = join(directory, 'crash-on-start');
    await writeFile(crashFlag, '');
    try {
      const agent = start(controllableConfig('late', { env: { CONTROLLABLE_CRASH_IF_FILE: crashFlag } }), {
        retryDelayMs: 10,
        reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      });
      const changes = vi.fn();
      agent.onToolsChanged(changes);
      await agent.initialize();
      expect(await agent.health()).toMatchObject({
        status: 'down',
        reason: 'crashed_on_start',
        detail: expect.stringContaining('exited before it finished starting'),
      });
      expect(agent.manifest().tools).toEqual([]);
      expect(await agent.execute('echo', { text: 'x' }, callContext())).toMatchObject({
        ok: false,
        error_type: 'tool_unavailable',
      });

      await rm(crashFlag);
      await vi.waitFor(() => expect(agent.status).toBe('up'), {
        timeout: childServerTimeoutMs,
        interval: 50,
      });
      expect(changes).toHaveBeenCalled();
      expect(await agent.execute('echo', { text: 'joined' }, callContext())).toMatchObject({
        ok: true,
        data: 'joined',
      });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('fails initialize with agent_init_failed when asked to, and does not retry on its own', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-broken-'));
    const startLog = join(directory, 'starts.log');
    const starts = async () =>
      existsSync(startLog) ? (await readFile(startLog, 'utf8')).trim().split('\n').length : 0;
    try {
      const agent = start(
        controllableConfig('broken', {
          env: { CONTROLLABLE_CRASH_ON_START: '1', CONTROLLABLE_START_LOG: startLog },
        }),
        { retryDelayMs: 10, throwOnStartFailure: true, reconnect: { initialDelayMs: 10, maxDelayMs: 10 } },
      );
      const failure = await agent.initialize().catch((error: unknown) => error);
      expect(PatchbayError.isInstance(failure) && failure.code).toBe('agent_init_failed');
      expect(await agent.health()).toMatchObject({ status: 'down' });
      // The first attempt and its one retry; a background loop (10 ms backoff) would add more.
      expect(await starts()).toBe(2);
      // Nothing will add a third: no reconnect is scheduled (a background loop would show its retryAt).
      expect(agent.observedHealth()).toMatchObject({ status: 'down' });
      expect(agent.observedHealth().retryAt).toBeUndefined();
      await agent.shutdown();
      expect(await agent.health()).toEqual({ status: 'stopped' });
      expect(await agent.execute('echo', { text: 'x' }, callContext())).toMatchObject({
        ok: false,
        error_type: 'tool_unavailable',
      });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('kills its child on shutdown', async () => {
    const agent = start(controllableConfig('short-lived'));
    await agent.initialize();
    const pid = agent.pid as number;
    expect(processAlive(pid)).toBe(true);
    await agent.shutdown();
    await vi.waitFor(() => expect(processAlive(pid)).toBe(false), { timeout: childServerTimeoutMs });
    expect(await agent.health()).toEqual({ status: 'stopped' });
  });
});

describe('environment isolation of stdio children', () => {
  const canary = 'PATCHBAY_CANARY_SECRET';
  const declaredSource = 'PATCHBAY_TEST_DECLARED_SOURCE';
  const canaryValue = 'sk-canary-do-not-leak-000000000000';

  beforeAll(() => {
    process.env[canary] = canaryValue;
    // Shorter than the by-value redaction floor (8), so the echo shows it reached the child as is.
    process.env[declaredSource] = 'dvalue';
  });
  afterAll(() => {
    delete process.env[canary];
    delete process.env[declaredSource];
  });

  it('gives the child the safe defaults plus declared variables, never the parent secrets', async () => {
    const [config] = parseMcpServersConfig({
      mcpServers: {
        isolated: {
          command: process.execPath,
          args: [controllableConfig('x').args[0] as string],
          env: {
            DECLARED_VAR: `\${${declaredSource}}`,
            LITERAL_VAR: 'literal',
            SERVICE_TOKEN: `\${${canary}}`,
          },
        },
      },
    }).servers;
    const agent = start(config as NonNullable<typeof config>);
    await agent.initialize();
    const read = async (name: string) => agent.execute('read_env', { name }, callContext());
    expect(await read(canary)).toMatchObject({ ok: true, data: { name: canary, value: null } });
    expect(await read(declaredSource)).toMatchObject({ ok: true, data: { value: null } });
    expect(await read('DECLARED_VAR')).toMatchObject({ ok: true, data: { value: 'dvalue' } });
    expect(await read('LITERAL_VAR')).toMatchObject({ ok: true, data: { value: 'literal' } });
    // Passed on purpose, but a credential-named value is still kept out of what the model reads.
    expect(await read('SERVICE_TOKEN')).toMatchObject({ ok: true, data: { value: '[REDACTED]' } });
    expect(JSON.stringify(await read('SERVICE_TOKEN'))).not.toContain(canaryValue);
    expect(await read('PATH')).toMatchObject({ ok: true, data: { value: process.env.PATH ?? null } });
  });
});
