import { getEventListeners } from 'node:events';
import { narrowState } from '@patchbay/connector/ports';
import { HttpError, PatchbayError, success } from '@patchbay/envelope';
import { createFixtureConnector } from '@patchbay/testing';
import { HttpResponse, http } from 'msw';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  acmeConnection,
  createAcmeConnector,
  createAcmeServer,
  createCountingAgent,
  createTestStatusSource,
  secretToken,
} from '../test/support.js';
import { fromFunction } from './function-agent.js';
import { createOrchestrator } from './orchestrator.js';

const acme = createAcmeServer();
beforeAll(() => acme.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => acme.reset());
afterAll(() => acme.server.close());

const subject = 'user-1';

async function setup(configure?: (source: ReturnType<typeof createTestStatusSource>) => void) {
  const statusSource = createTestStatusSource();
  configure?.(statusSource);
  const orchestrator = createOrchestrator({ statusSource, connectors: [createAcmeConnector()] });
  await orchestrator.start();
  return { orchestrator, statusSource };
}

describe('registry and routing', () => {
  it('routes a call to the connector and answers with an envelope carrying meta', async () => {
    const { orchestrator } = await setup((source) => source.connect(subject, acmeConnection()));
    const result = await orchestrator.execute(
      'acme_get_ticket',
      { id: 'T-1' },
      { subject, correlationId: 'corr-1' },
    );
    expect(result).toMatchObject({ ok: true, data: { id: 'T-1', title: 'First' } });
    expect(result.meta).toMatchObject({ correlation_id: 'corr-1', tool: 'acme_get_ticket' });
    expect(typeof result.meta?.duration_ms).toBe('number');
    expect(acme.requests.map((request) => request.headers.get('authorization'))).toEqual([
      `Bearer ${secretToken}`,
    ]);
  });

  it('generates a correlation id when none is given', async () => {
    const { orchestrator } = await setup((source) => source.connect(subject, acmeConnection()));
    const first = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    const second = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(first.meta?.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.meta?.correlation_id).not.toBe(first.meta?.correlation_id);
  });

  it('rejects a second tool with the same name and names both owners', () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(createCountingAgent({ id: 'first-agent' }));
    let thrown: unknown;
    try {
      orchestrator.register(createCountingAgent({ id: 'second-agent' }));
    } catch (error) {
      thrown = error;
    }
    expect(PatchbayError.isInstance(thrown)).toBe(true);
    expect((thrown as PatchbayError).code).toBe('duplicate_tool');
    expect((thrown as PatchbayError).message).toContain('first-agent');
    expect((thrown as PatchbayError).message).toContain('second-agent');
    expect(orchestrator.listAgents().map((agent) => agent.id)).toEqual(['first-agent']);
  });

  it('answers tool_unavailable for an unknown tool', async () => {
    const { orchestrator } = await setup();
    const result = await orchestrator.execute('nope_missing', {}, { subject });
    expect(result).toMatchObject({
      ok: false,
      error_type: 'tool_unavailable',
      meta: { tool: 'nope_missing' },
    });
  });

  it('answers tool_unavailable while the agent is not started', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent();
    orchestrator.register(agent);
    const result = await orchestrator.execute('count_echo', { text: 'hi' }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
    expect(agent.calls).toHaveLength(0);
  });

  it('creates agents from registered factories', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.registerFactory('counting', (config: { id: string }) =>
      createCountingAgent({ id: config.id }),
    );
    const agent = orchestrator.create('counting', { id: 'made-by-factory' });
    expect(agent.id).toBe('made-by-factory');
    await orchestrator.start();
    expect(await orchestrator.execute('count_echo', { text: 'hi' }, { subject })).toMatchObject({ ok: true });
    expect(() => orchestrator.create('unknown', {})).toThrow(/unknown/);
  });

  it('re-indexes when an agent reports changed tools', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent();
    orchestrator.register(agent);
    await orchestrator.start();
    agent.setTools([{ ...agent.tools()[0]!, name: 'count_other' }]);
    expect(await orchestrator.execute('count_echo', { text: 'a' }, { subject })).toMatchObject({
      error_type: 'tool_unavailable',
    });
    expect(await orchestrator.execute('count_other', { text: 'a' }, { subject })).toMatchObject({ ok: true });
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['count_other']);
  });

  it('keeps the first owner when a changed tool list collides with another agent', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const first = createCountingAgent({ id: 'first' });
    const second = createCountingAgent({ id: 'second', tools: [{ name: 'count_second' }] });
    orchestrator.register(first);
    orchestrator.register(second);
    await orchestrator.start();
    second.setTools([{ ...second.tools()[0]!, name: 'count_echo' }]);
    await orchestrator.execute('count_echo', { text: 'a' }, { subject });
    expect(first.calls).toHaveLength(1);
    expect(second.calls).toHaveLength(0);
  });

  it('wraps a plain function as a legacy tool agent', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const saved: string[] = [];
    orchestrator.register(
      fromFunction({
        name: 'save_fact',
        description: 'Saves a fact about the user.',
        input: z.object({ fact: z.string().describe('The fact to remember') }),
        effect: 'write',
        execute: async (input) => {
          saved.push(input.fact);
          return { saved: true };
        },
      }),
    );
    await orchestrator.start();
    const result = await orchestrator.execute('save_fact', { fact: 'likes tea' }, { subject });
    expect(result).toMatchObject({ ok: true, data: { saved: true } });
    expect(saved).toEqual(['likes tea']);
  });
});

describe("seed 003's manifest: name, capabilities, requiresApproval; tool examples and category", () => {
  it('a connector agent carries the connector name and capabilities; its tools their examples and category', async () => {
    const { orchestrator } = await setup();
    const agent = orchestrator.listAgents().find((candidate) => candidate.id === 'connector:acme')!;
    const manifest = agent.manifest();
    const connector = createAcmeConnector();
    expect(manifest).toMatchObject({ name: connector.name, capabilities: connector.capabilities });
    expect(manifest.name).toBeTruthy();
  });

  it('a function declaring requiresApproval has even its read tool held for a person', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    let ran = 0;
    const agent = fromFunction({
      name: 'lookup_salary',
      description: 'Looks up a salary.',
      input: z.object({ person: z.string().describe('Who') }),
      effect: 'read',
      requiresApproval: true,
      displayName: 'Payroll',
      capabilities: ['read salaries'],
      examples: ['What does Ana earn?'],
      category: 'payroll',
      execute: async () => {
        ran += 1;
        return { salary: 1 };
      },
    });
    orchestrator.register(agent);
    await orchestrator.start();
    expect(agent.manifest()).toMatchObject({
      name: 'Payroll',
      capabilities: ['read salaries'],
      requiresApproval: true,
      tools: [{ name: 'lookup_salary', examples: ['What does Ana earn?'], category: 'payroll' }],
    });
    const held = await orchestrator.execute('lookup_salary', { person: 'Ana' }, { subject });
    expect(held).toMatchObject({ ok: false, error_type: 'approval_required' });
    expect(ran).toBe(0);
  });
});

describe('status gate: no request leaves unless the connector may be used', () => {
  it('not configured → connector_not_configured with the setup url', async () => {
    const { orchestrator } = await setup();
    const result = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      connector: 'acme',
      setup_url: 'https://acme.test/connect',
    });
    expect(acme.requests).toHaveLength(0);
  });

  it('reads only the connectors the tool needs when the source has a per-connector lookup', async () => {
    const statusSource = createTestStatusSource();
    statusSource.connect(subject, acmeConnection());
    statusSource.connect(subject, { connectorId: 'other-service', credentials: { token: 'x' }, scopes: [] });
    const asked: string[][] = [];
    const source = {
      ...statusSource,
      load: async () => {
        throw new Error('the gate should not read every connection');
      },
      async loadConnectors(who: string, connectorIds: readonly string[]) {
        asked.push([...connectorIds]);
        return narrowState(await statusSource.load(who), connectorIds);
      },
    };
    const orchestrator = createOrchestrator({ statusSource: source, connectors: [createAcmeConnector()] });
    await orchestrator.start();
    const result = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({ ok: true, data: { id: 'T-1' } });
    expect(asked).toEqual([['acme']]);
    expect(acme.requests.map((request) => request.headers.get('authorization'))).toEqual([
      `Bearer ${secretToken}`,
    ]);
  });

  it('disabled by admin → disabled_by_admin', async () => {
    const { orchestrator } = await setup((source) => {
      source.connect(subject, acmeConnection());
      source.disable(subject, 'acme');
    });
    const result = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'disabled_by_admin' });
    expect(acme.requests).toHaveLength(0);
  });

  it.each([
    ['whole-state', false],
    ['per-connector', true],
  ])(
    'an MCP server or function an admin disabled runs nothing (the policy covers every agent; %s lookup)',
    async (_lookup, perConnector) => {
      const statusSource = createTestStatusSource();
      const asked: string[][] = [];
      const source = perConnector
        ? {
            ...statusSource,
            load: async () => {
              throw new Error('the gate should read only the agent’s own policy');
            },
            async loadConnectors(who: string, connectorIds: readonly string[]) {
              asked.push([...connectorIds]);
              return narrowState(await statusSource.load(who), connectorIds);
            },
          }
        : statusSource;
      const orchestrator = createOrchestrator({ statusSource: source });
      const ran: string[] = [];
      const agent = fromFunction({
        name: 'save_fact',
        description: 'Saves a fact about the user.',
        input: z.object({ fact: z.string() }),
        effect: 'read',
        execute: async (input) => {
          ran.push(input.fact);
          return { saved: true };
        },
      });
      orchestrator.register(agent);
      await orchestrator.start();
      statusSource.disable(subject, agent.id);
      const refused = await orchestrator.execute('save_fact', { fact: 'a' }, { subject });
      expect(refused).toMatchObject({ ok: false, error_type: 'disabled_by_admin' });
      // Another subject is not under that subject's rule.
      const other = await orchestrator.execute('save_fact', { fact: 'b' }, { subject: 'user-2' });
      expect(other).toMatchObject({ ok: true });
      expect(ran).toEqual(['b']);
      if (perConnector) expect(asked).toEqual([[agent.id], [agent.id]]);
    },
  );

  it('rate limited until a future time → rate_limited; a past limit no longer gates', async () => {
    const statusSource = createTestStatusSource({
      [subject]: { rateLimitedUntil: { acme: '2030-01-01T00:01:00Z' } },
      other: { rateLimitedUntil: { acme: '2029-12-31T23:00:00Z' } },
    });
    statusSource.connect(subject, acmeConnection());
    statusSource.connect('other', acmeConnection());
    const orchestrator = createOrchestrator({
      statusSource,
      connectors: [createAcmeConnector()],
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    await orchestrator.start();
    const limited = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(limited).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 60 });
    expect(acme.requests).toHaveLength(0);
    expect(await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject: 'other' })).toMatchObject({
      ok: true,
    });
  });

  it('credential error → invalid_credentials', async () => {
    const { orchestrator } = await setup((source) =>
      source.connect(subject, { ...acmeConnection(), credentialError: 'The token was revoked.' }),
    );
    const result = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'invalid_credentials', connector: 'acme' });
    expect(acme.requests).toHaveLength(0);
  });

  it('missing scope → permission_denied listing it', async () => {
    const { orchestrator } = await setup((source) =>
      source.connect(subject, acmeConnection(['tickets:read'])),
    );
    const result = await orchestrator.execute('acme_create_ticket', { title: 'x' }, { subject });
    expect(result).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['tickets:write'],
    });
    expect(acme.requests).toHaveLength(0);
  });

  it('missing `requires` connector → not configured for that connector', async () => {
    const { orchestrator } = await setup((source) => source.connect(subject, acmeConnection()));
    const result = await orchestrator.execute('acme_post_to_chat', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'connector_not_configured', connector: 'chat' });
    expect(acme.requests).toHaveLength(0);
  });

  it('gates function tools on their `requires` connectors', async () => {
    const statusSource = createTestStatusSource();
    const orchestrator = createOrchestrator({ statusSource });
    let ran = 0;
    orchestrator.register(
      fromFunction({
        name: 'summarize_tickets',
        description: 'Summarises tickets.',
        input: z.object({}),
        effect: 'read',
        requires: ['acme'],
        execute: async () => {
          ran += 1;
          return 'summary';
        },
      }),
    );
    await orchestrator.start();
    expect(await orchestrator.execute('summarize_tickets', {}, { subject })).toMatchObject({
      error_type: 'connector_not_configured',
    });
    statusSource.connect(subject, acmeConnection());
    expect(await orchestrator.execute('summarize_tickets', {}, { subject })).toMatchObject({
      ok: true,
      data: 'summary',
    });
    expect(ran).toBe(1);
  });

  it('checks status before arguments: a not-connected call with bad arguments still reports the connector', async () => {
    const { orchestrator } = await setup();
    const result = await orchestrator.execute('acme_create_ticket', { priority: 'high' }, { subject });
    expect(result).toMatchObject({ error_type: 'connector_not_configured' });
  });

  it('reads status once for a tool without a connector (the admin policy), never more', async () => {
    const statusSource = createTestStatusSource();
    const orchestrator = createOrchestrator({ statusSource });
    orchestrator.register(createCountingAgent());
    await orchestrator.start();
    await orchestrator.execute('count_echo', { text: 'hi' }, { subject });
    expect(statusSource.loads()).toBe(1);
  });
});

describe('argument validation', () => {
  it('zod: a missing required field → needs_input with the tool question', async () => {
    const { orchestrator } = await setup((source) => source.connect(subject, acmeConnection()));
    const result = await orchestrator.execute('acme_create_ticket', {}, { subject });
    expect(result).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'title', question: 'What should the ticket be called?' }],
    });
    expect(acme.requests).toHaveLength(0);
  });

  it('zod: a wrong value → invalid_arguments with the path', async () => {
    const { orchestrator } = await setup((source) => source.connect(subject, acmeConnection()));
    const result = await orchestrator.execute('acme_create_ticket', { title: 'x', priority: 9 }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    if (!result.ok) expect(result.issues?.[0]?.path).toBe('priority');
    expect(acme.requests).toHaveLength(0);
  });

  it('JSON Schema: a missing required field → needs_input with a question from the description', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent();
    orchestrator.register(agent);
    await orchestrator.start();
    const result = await orchestrator.execute('count_echo', {}, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'needs_input', missing: [{ field: 'text' }] });
    if (!result.ok) expect(result.missing?.[0]?.question).toContain('text to echo');
    expect(agent.calls).toHaveLength(0);
  });

  it('JSON Schema: a wrong type → invalid_arguments', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent();
    orchestrator.register(agent);
    await orchestrator.start();
    const result = await orchestrator.execute('count_echo', { text: 42 }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'invalid_arguments', issues: [{ path: 'text' }] });
    expect(agent.calls).toHaveLength(0);
  });

  it('JSON Schema: formats are checked (ajv-formats)', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent({
      tools: [
        {
          name: 'mail_send',
          inputJsonSchema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { to: { type: 'string', format: 'email', description: 'Recipient address' } },
            required: ['to'],
          },
        },
      ],
    });
    orchestrator.register(agent);
    await orchestrator.start();
    expect(await orchestrator.execute('mail_send', { to: 'not an address' }, { subject })).toMatchObject({
      error_type: 'invalid_arguments',
    });
    expect(await orchestrator.execute('mail_send', { to: 'a@b.example' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(agent.calls).toHaveLength(1);
  });
});

describe('timeouts and cancellation', () => {
  it('abandons a hung call that ignores its signal while another agent keeps answering', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    let sawAbort = false;
    const hung = createCountingAgent({
      id: 'hung',
      tools: [{ name: 'hang_forever', timeoutMs: 50 }],
      execute: (_tool, _args, context) => {
        context.signal.addEventListener('abort', () => {
          sawAbort = true;
        });
        return new Promise(() => {});
      },
    });
    const healthy = createCountingAgent({ id: 'healthy' });
    orchestrator.register(hung);
    orchestrator.register(healthy);
    await orchestrator.start();
    const pending = orchestrator.execute('hang_forever', { text: 'x' }, { subject });
    const other = await orchestrator.execute('count_echo', { text: 'still here' }, { subject });
    expect(other).toMatchObject({ ok: true, data: { echoed: { text: 'still here' } } });
    const result = await pending;
    expect(result).toMatchObject({
      ok: false,
      error_type: 'timeout',
      retryable: true,
      meta: { tool: 'hang_forever' },
    });
    expect(sawAbort).toBe(true);
    expect((hung.calls[0]?.context.signal.reason as Error | undefined)?.name).toBe('TimeoutError');
  });

  it("gives every call a signal of its own, marked as such, never the caller's", async () => {
    // Agents hand a signal marked per-call to code that never removes its abort listeners (the MCP
    // SDK): a caller's long-lived signal handed on as such would collect a listener per call.
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent();
    orchestrator.register(agent);
    await orchestrator.start();
    const caller = new AbortController();
    await orchestrator.execute('count_echo', { text: 'a' }, { subject, signal: caller.signal });
    await orchestrator.execute('count_echo', { text: 'b' }, { subject, signal: caller.signal });
    await orchestrator.execute('count_echo', { text: 'c' }, { subject });
    const contexts = agent.calls.map((call) => call.context);
    expect(contexts).toHaveLength(3);
    for (const context of contexts) {
      expect(context.signalPerCall).toBe(true);
      expect(context.signal).not.toBe(caller.signal);
    }
    expect(new Set(contexts.map((context) => context.signal)).size).toBe(3);
  });

  it("leaves no listener on a caller's signal once a call is answered, timed out or cancelled", async () => {
    // A host keeps one signal for many calls: a listener left per call would pile up on it.
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(createCountingAgent());
    orchestrator.register(
      createCountingAgent({
        id: 'hung',
        tools: [
          { name: 'hang_forever', timeoutMs: 20 },
          { name: 'hang_until_cancelled', timeoutMs: 60_000 },
        ],
        execute: () => new Promise(() => {}),
      }),
    );
    await orchestrator.start();
    const caller = new AbortController();
    for (let index = 0; index < 20; index += 1) {
      await orchestrator.execute('count_echo', { text: `${index}` }, { subject, signal: caller.signal });
    }
    expect(
      await orchestrator.execute('hang_forever', { text: 'x' }, { subject, signal: caller.signal }),
    ).toMatchObject({ error_type: 'timeout' });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    const cancelled = orchestrator.execute(
      'hang_until_cancelled',
      { text: 'y' },
      { subject, signal: caller.signal },
    );
    // The gate listens once the call reaches the agent (after its status read).
    await vi.waitFor(() => expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1));
    caller.abort();
    expect(await cancelled).toMatchObject({ error_type: 'cancelled', user_message: /cancelled/ });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('passes the caller signal to the agent and answers when the caller aborts', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const controller = new AbortController();
    const agent = createCountingAgent({
      execute: (_tool, _args, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => resolve(success('stopped cleanly')));
          controller.abort();
        }),
    });
    orchestrator.register(agent);
    await orchestrator.start();
    const result = await orchestrator.execute(
      'count_echo',
      { text: 'x' },
      { subject, signal: controller.signal },
    );
    expect(agent.calls[0]?.context.signal.aborted).toBe(true);
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
    if (!result.ok) expect(result.user_message).toMatch(/cancelled/);
  });

  it('does not start a call whose signal is already aborted', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent();
    orchestrator.register(agent);
    await orchestrator.start();
    const result = await orchestrator.execute(
      'count_echo',
      { text: 'x' },
      { subject, signal: AbortSignal.abort() },
    );
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
    expect(agent.calls).toHaveLength(0);
  });

  it('maps a throwing agent to an envelope and keeps it registered', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    let fail = true;
    orchestrator.register(
      createCountingAgent({
        execute: async () => {
          if (fail) throw new Error(`crashed with ${secretToken}`);
          return success('fine');
        },
      }),
    );
    await orchestrator.start();
    const crashed = await orchestrator.execute('count_echo', { text: 'x' }, { subject });
    expect(crashed).toMatchObject({ ok: false, error_type: 'internal_error' });
    expect(JSON.stringify(crashed)).not.toContain(secretToken);
    fail = false;
    expect(await orchestrator.execute('count_echo', { text: 'x' }, { subject })).toMatchObject({
      ok: true,
      data: 'fine',
    });
  });
});

describe('results written back to the status source', () => {
  it('a 429 marks the connector rate limited until now + retry-after', async () => {
    const { orchestrator, statusSource } = await setup((source) => source.connect(subject, acmeConnection()));
    acme.server.use(
      http.get('https://api.acme.test/tickets/:id', () =>
        HttpResponse.json({ message: 'slow down' }, { status: 429, headers: { 'retry-after': '30' } }),
      ),
    );
    const before = Date.now();
    const result = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 30 });
    expect(statusSource.writes).toHaveLength(1);
    const write = statusSource.writes[0]!;
    expect(write).toMatchObject({ kind: 'rate_limited', subject, connectorId: 'acme' });
    const until = Date.parse(write.value);
    expect(until - before).toBeGreaterThanOrEqual(29_000);
    // The next turn sees it: no request leaves.
    acme.requests.length = 0;
    expect(await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject })).toMatchObject({
      error_type: 'rate_limited',
    });
    expect(acme.requests).toHaveLength(0);
  });

  it('a rate limit without retry-after is recorded for the default 60 s', async () => {
    const statusSource = createTestStatusSource();
    const orchestrator = createOrchestrator({
      statusSource,
      connectors: [limitlessConnector()],
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    statusSource.connect(subject, {
      connectorId: 'limitless',
      credentials: { token: secretToken },
      scopes: [],
    });
    await orchestrator.start();
    expect(await orchestrator.execute('limitless_call', {}, { subject })).toMatchObject({
      error_type: 'rate_limited',
    });
    expect(statusSource.writes).toEqual([
      { kind: 'rate_limited', subject, connectorId: 'limitless', value: '2030-01-01T00:01:00.000Z' },
    ]);
  });

  it('a 401 marks the credentials invalid', async () => {
    const { orchestrator, statusSource } = await setup((source) => source.connect(subject, acmeConnection()));
    acme.server.use(
      http.get('https://api.acme.test/tickets/:id', () =>
        HttpResponse.json({ message: 'Bad credentials' }, { status: 401 }),
      ),
    );
    const result = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({
      ok: false,
      error_type: 'invalid_credentials',
      setup_url: 'https://acme.test/connect',
    });
    expect(statusSource.writes).toMatchObject([
      { kind: 'invalid_credentials', subject, connectorId: 'acme' },
    ]);
    expect(await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject })).toMatchObject({
      error_type: 'invalid_credentials',
    });
  });
});

describe('a tool that handles its own credential', () => {
  it('lets it out nowhere: not in its answer, its error or the log', async () => {
    // Opaque: no token shape would catch it, only the gate knowing the grant's secrets does.
    const opaque = 'opaque-Credential-7Tq4Lm92';
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const statusSource = createTestStatusSource();
    const orchestrator = createOrchestrator({
      statusSource,
      connectors: [credentialEchoConnector()],
      logger,
    });
    // An agent of its own whose tools use the connector's credential: only the gate redacts for it.
    orchestrator.register(
      createCountingAgent({
        id: 'own-echo',
        tools: [
          { name: 'own_answer', connectorId: 'echoing' },
          { name: 'own_throw', connectorId: 'echoing' },
        ],
        execute: async (toolName, _args, context) => {
          if (toolName === 'own_throw') throw new Error(`crashed with ${context.credentials?.token}`);
          return success(`the token is ${context.credentials?.token}`);
        },
      }),
    );
    statusSource.connect(subject, { connectorId: 'echoing', credentials: { token: opaque }, scopes: [] });
    await orchestrator.start();
    const answers = [];
    for (const tool of ['echoing_answer', 'echoing_throw', 'own_answer', 'own_throw']) {
      answers.push(await orchestrator.execute(tool, { text: 'x' }, { subject }));
    }
    expect(answers.map((answer) => answer.ok)).toEqual([true, false, true, false]);
    expect(lines.some((line) => line.includes('agent threw'))).toBe(true);
    const leaks = [...answers.map((answer) => JSON.stringify(answer)), ...lines].filter((text) =>
      text.includes(opaque),
    );
    expect(leaks).toEqual([]);
  });
});

/** A connector whose tools put their own credential in their answer, and in the error they throw. */
function credentialEchoConnector() {
  return createFixtureConnector({
    id: 'echoing',
    description: 'A connector that repeats its credential.',
    tools: [
      {
        name: 'echoing_answer',
        description: 'Answers with the credential.',
        execute: async (_input, context) => success(`the token is ${context.credentials.token}`),
      },
      {
        name: 'echoing_throw',
        description: 'Throws with the credential.',
        execute: async (_input, context) => {
          throw new Error(`crashed with ${context.credentials.token}`);
        },
      },
    ],
  });
}

/** A one-tool connector whose service always answers 429 without saying for how long. */
function limitlessConnector() {
  return createFixtureConnector({
    id: 'limitless',
    description: 'A connector that is always rate limited.',
    tools: [
      {
        name: 'limitless_call',
        description: 'Calls the limitless service.',
        execute: async () => {
          throw new HttpError({ status: 429 });
        },
      },
    ],
  });
}
