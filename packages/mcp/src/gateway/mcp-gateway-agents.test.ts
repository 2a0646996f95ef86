import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createOrchestrator, fromFunction, type Orchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource, type InMemoryStatusSource } from '@patchbay/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAcmeConnector, secretToken } from '../../test/support.js';
import { childServerTimeoutMs, controllableConfig } from '../client/controllable-fixture.js';
import { createMcpAgent, type McpAgent } from '../client/mcp-agent.js';
import { createMcpGateway, type McpGatewayOptions } from './mcp-gateway.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

const subject = 'user-1';

interface Harness {
  client: Client;
  orchestrator: Orchestrator;
  upstream: McpAgent;
  statusSource: InMemoryStatusSource;
  facts: string[];
  /** Resolves at the next `notifications/tools/list_changed` the client receives. */
  nextListChanged(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/**
 * A gateway over an orchestrator serving the Acme connector, two wrapped functions (one needing Acme)
 * and the controllable test server as a real child process, its tools prefixed `up_`.
 */
async function connectGateway(
  options: {
    trust?: boolean;
    connectAcme?: boolean;
    gateway?: (orchestrator: Orchestrator) => Partial<McpGatewayOptions>;
  } = {},
): Promise<Harness> {
  const statusSource = createInMemoryStatusSource();
  if (options.connectAcme) {
    statusSource.connect(subject, 'acme', {
      credentials: { token: secretToken },
      scopes: ['tickets:read', 'tickets:write'],
    });
  }
  const connectors = [createAcmeConnector()];
  const orchestrator = createOrchestrator({ statusSource, connectors });
  const facts: string[] = [];
  orchestrator.register(
    fromFunction({
      name: 'save_fact',
      description: 'Saves a fact about the user.',
      input: z.object({ fact: z.string().describe('The fact to remember') }),
      effect: 'write',
      category: 'memory',
      examples: ['Remember that I take the 8:05 train.'],
      execute: async ({ fact }) => {
        facts.push(fact);
        return { saved: fact };
      },
    }),
  );
  orchestrator.register(
    fromFunction({
      name: 'summarise_tickets',
      description: 'Summarises the open Acme tickets.',
      input: z.object({}),
      effect: 'read',
      requires: ['acme'],
      execute: async () => 'nothing open',
    }),
  );
  // A crash must stay visible: the agent would otherwise reconnect before the test looks.
  const upstream = createMcpAgent(
    controllableConfig('upstream', { prefix: 'up', trust: options.trust ?? false }),
    {
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    },
  );
  orchestrator.register(upstream);
  await orchestrator.start();
  const gateway = createMcpGateway({
    orchestrator,
    connectors,
    statusSource,
    subject,
    refreshIntervalMs: 0,
    ...options.gateway?.(orchestrator),
  });
  const client = new Client({ name: 'gateway-agents-test', version: '1.0.0' });
  let waiting: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    const resolvers = waiting;
    waiting = [];
    for (const resolve of resolvers) resolve();
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverTransport);
  await client.connect(clientTransport);
  cleanups.push(async () => {
    await client.close();
    await gateway.close();
    await orchestrator.stop();
  });
  return {
    client,
    orchestrator,
    upstream,
    statusSource,
    facts,
    nextListChanged: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
}

const names = (result: { tools: { name: string }[] }) => result.tools.map((tool) => tool.name);
const upstreamTools = [
  'up_add_tool',
  'up_big_result',
  'up_busy',
  'up_crash',
  'up_delete_everything',
  'up_echo',
  'up_echo_structured',
  'up_fail',
  'up_hang',
  'up_read_env',
  'up_remove_tool',
  'up_report_meta',
  'up_slow_once',
];

describe('gateway over functions and MCP servers', () => {
  it('lists function tools and the upstream server’s tools beside the connector tools, sorted, meta-tool last', async () => {
    const { client } = await connectGateway({ connectAcme: true });
    expect(names(await client.listTools())).toEqual([
      'acme_create_ticket',
      'acme_delete_ticket',
      'acme_get_ticket',
      'save_fact',
      'summarise_tickets',
      ...upstreamTools,
      'refresh_connector_status',
    ]);
  });

  it('keeps the upstream server’s annotations and gives functions theirs from the effect', async () => {
    const { client } = await connectGateway();
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    // A function's category and examples reach the host with its description.
    expect(tools.get('save_fact')?.description).toBe(
      'Saves a fact about the user.\nCategory: memory\nExamples:\n- Remember that I take the 8:05 train.',
    );
    expect(tools.get('up_echo')?.annotations).toEqual({ readOnlyHint: true });
    expect(tools.get('up_delete_everything')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
    });
    // The upstream declared none: the gateway adds none (in particular no readOnlyHint it never claimed).
    expect(tools.get('up_fail')?.annotations).toBeUndefined();
    // Results are envelopes, so the upstream output schema would describe the wrong structure.
    expect(tools.get('up_echo_structured')?.outputSchema).toBeUndefined();
    expect(tools.get('up_echo')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    expect(tools.get('save_fact')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
  });

  it('leaves out a function whose required connector is not connected, and answers its call with the setup URL', async () => {
    const { client } = await connectGateway();
    const listed = names(await client.listTools());
    expect(listed).toContain('save_fact');
    expect(listed).not.toContain('summarise_tickets');
    const result = await client.callTool({ name: 'summarise_tickets', arguments: {} });
    expect(result.structuredContent).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      connector: 'acme',
      setup_url: 'https://acme.test/connect',
    });
  });

  it('runs calls of a function and of the upstream server, and holds an untrusted write for approval', async () => {
    const { client, facts, orchestrator } = await connectGateway();
    const saved = await client.callTool({ name: 'save_fact', arguments: { fact: 'likes tea' } });
    expect(saved.isError).toBe(false);
    expect(saved.structuredContent).toMatchObject({ ok: true, data: { saved: 'likes tea' } });
    expect(facts).toEqual(['likes tea']);

    const echoed = await client.callTool({ name: 'up_echo', arguments: { text: 'over the gateway' } });
    expect(echoed.structuredContent).toMatchObject({ ok: true, data: 'over the gateway' });

    // The server is untrusted and `fail` is not read-only: one approval gate for every tool.
    const held = await client.callTool({ name: 'up_fail', arguments: { message: 'x' } });
    expect(held.structuredContent).toMatchObject({ ok: false, error_type: 'approval_required' });
    const proposalId = (held.structuredContent as { proposal_id: string }).proposal_id;
    expect((await orchestrator.listProposals({ state: 'pending' })).map((proposal) => proposal.id)).toEqual([
      proposalId,
    ]);
  });

  it('sends tools/list_changed when the upstream server adds a tool, which is then listed and callable', async () => {
    const { client, nextListChanged } = await connectGateway({ trust: true });
    expect(names(await client.listTools())).not.toContain('up_late_tool');
    const changed = nextListChanged();
    const added = await client.callTool({ name: 'up_add_tool', arguments: { name: 'late_tool' } });
    expect(added.structuredContent).toMatchObject({ ok: true });
    await changed;
    expect(names(await client.listTools())).toContain('up_late_tool');
    const result = await client.callTool({ name: 'up_late_tool', arguments: { text: 'hi' } });
    expect(result.structuredContent).toMatchObject({ ok: true, data: 'late_tool: hi' });
  });

  it('drops the upstream server’s tools when it crashes and tells the host', async () => {
    const { client, upstream, nextListChanged } = await connectGateway({ trust: true });
    expect(names(await client.listTools())).toContain('up_echo');
    const changed = nextListChanged();
    const crashed = await client.callTool({ name: 'up_crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    await changed;
    expect(upstream.status).toBe('down');
    expect(names(await client.listTools())).toEqual(['save_fact', 'refresh_connector_status']);
    const after = await client.callTool({ name: 'up_echo', arguments: { text: 'x' } });
    expect(after.structuredContent).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
  });

  it('leaves out a server an admin disabled, tells the host, and lists it again once enabled', async () => {
    const { client, statusSource, nextListChanged } = await connectGateway({ trust: true });
    expect(names(await client.listTools())).toContain('up_echo');
    let changed = nextListChanged();
    statusSource.disable('upstream', subject);
    await changed;
    expect(names(await client.listTools())).toEqual(['save_fact', 'refresh_connector_status']);
    // The gate holds the same rule: a host that calls it anyway runs nothing.
    const refused = await client.callTool({ name: 'up_echo', arguments: { text: 'x' } });
    expect(refused.structuredContent).toMatchObject({ ok: false, error_type: 'disabled_by_admin' });
    changed = nextListChanged();
    statusSource.enable('upstream', subject);
    await changed;
    expect(names(await client.listTools())).toEqual([
      'save_fact',
      ...upstreamTools,
      'refresh_connector_status',
    ]);
  });

  it('notices a server that died between calls at the next recheck', async () => {
    const { client, upstream, nextListChanged } = await connectGateway({
      trust: true,
      gateway: () => ({ refreshIntervalMs: 50 }),
    });
    expect(names(await client.listTools())).toContain('up_echo');
    const changed = nextListChanged();
    // The child this test started, ended by its own process id.
    process.kill(upstream.pid!, 'SIGKILL');
    await changed;
    expect(names(await client.listTools())).toEqual(['save_fact', 'refresh_connector_status']);
  });

  it('serves connector tools only when the orchestrator is given as execute alone', async () => {
    const { client, facts } = await connectGateway({
      connectAcme: true,
      gateway: (orchestrator) => ({ orchestrator: { execute: orchestrator.execute } }),
    });
    expect(names(await client.listTools())).toEqual([
      'acme_create_ticket',
      'acme_delete_ticket',
      'acme_get_ticket',
      'refresh_connector_status',
    ]);
    const result = await client.callTool({ name: 'save_fact', arguments: { fact: 'x' } });
    expect(result.structuredContent).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
    expect(facts).toEqual([]);
  });
});
