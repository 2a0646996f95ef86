import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { defineTool } from '@patchbay/connector';
import { PatchbayError, success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource, type InMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAcmeConnector, createAcmeServer, secretToken, serviceUrl } from '../../test/support.js';
import {
  connectorStatusPromptName,
  connectorStatusResourceUri,
  correlationIdMetaKey,
  createMcpGateway,
  type McpGateway,
  type McpGatewayOptions,
} from './mcp-gateway.js';

const acme = createAcmeServer();
beforeAll(() => acme.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => acme.reset());
afterAll(() => acme.server.close());

const subject = 'user-1';
const chatToken = 'chat_tok_AnotherSecret98765';

/** A second connector (`chat`), so `requires` and admin policy have something to act on; served by the same msw server. */
function createChatConnector() {
  return createFixtureConnector({
    id: 'chat',
    scopes: ['chat:write'],
    tools: [
      defineTool({
        name: 'chat_post_message',
        description: 'Posts a message to a chat channel.',
        input: z.object({ text: z.string().describe('Message text') }),
        effect: 'write',
        execute: async (input, context) => {
          const response = await fetch(`${serviceUrl}/chat`, {
            method: 'POST',
            headers: { authorization: `Bearer ${context.credentials.token}` },
            body: JSON.stringify(input),
          });
          return success(await response.json());
        },
      }),
    ],
  });
}

const connectAcme = (source: InMemoryStatusSource, who = subject) =>
  source.connect(who, 'acme', {
    credentials: { token: secretToken },
    scopes: ['tickets:read', 'tickets:write'],
  });
const connectChat = (source: InMemoryStatusSource, who = subject) =>
  source.connect(who, 'chat', { credentials: { token: chatToken }, scopes: ['chat:write'] });

interface Harness {
  client: Client;
  gateway: McpGateway;
  statusSource: InMemoryStatusSource;
  /** Resolves at the next `notifications/tools/list_changed` the client receives. */
  nextListChanged(): Promise<void>;
  close(): Promise<void>;
}

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((harness) => harness.close()));
});

async function connectGateway(
  configure: (source: InMemoryStatusSource) => void = () => {},
  overrides: Partial<McpGatewayOptions> = {},
): Promise<Harness> {
  const statusSource = createInMemoryStatusSource();
  configure(statusSource);
  const connectors = [createAcmeConnector(), createChatConnector()];
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  const gateway = createMcpGateway({
    orchestrator,
    connectors,
    statusSource,
    subject,
    refreshIntervalMs: 0,
    ...overrides,
  });
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  let waiting: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    const resolvers = waiting;
    waiting = [];
    for (const resolve of resolvers) resolve();
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverTransport);
  await client.connect(clientTransport);
  const harness: Harness = {
    client,
    gateway,
    statusSource,
    nextListChanged: () => new Promise<void>((resolve) => waiting.push(resolve)),
    async close() {
      await client.close();
      await gateway.close();
      await orchestrator.stop();
    },
  };
  open.push(harness);
  return harness;
}

const names = (result: { tools: { name: string }[] }) => result.tools.map((tool) => tool.name);

describe('tools/list', () => {
  it('lists only the tools of connected connectors, then refresh_connector_status', async () => {
    const { client } = await connectGateway((source) => connectAcme(source));
    const listed = await client.listTools();
    expect(names(listed)).toEqual([
      'acme_create_ticket',
      'acme_delete_ticket',
      'acme_get_ticket',
      'refresh_connector_status',
    ]);
  });

  it('gives each tool its JSON Schema and annotations from its effect', async () => {
    const { client } = await connectGateway((source) => connectAcme(source));
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    expect(tools.get('acme_get_ticket')).toMatchObject({
      description: 'Reads one Acme ticket by its id.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: 'Ticket id' } },
        required: ['id'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
    });
    expect(tools.get('acme_delete_ticket')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(tools.get('acme_create_ticket')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(tools.get('refresh_connector_status')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('leaves out tools whose scopes are not granted or whose required connector is missing', async () => {
    const { client } = await connectGateway((source) =>
      source.connect(subject, 'acme', { credentials: { token: secretToken }, scopes: ['tickets:read'] }),
    );
    expect(names(await client.listTools())).toEqual(['acme_get_ticket', 'refresh_connector_status']);
  });
});

describe('notifications/tools/list_changed', () => {
  it('is sent by the interval recheck when another connector gets connected, and the new tools appear', async () => {
    const { client, statusSource, nextListChanged } = await connectGateway((source) => connectAcme(source), {
      refreshIntervalMs: 50,
    });
    expect(names(await client.listTools())).not.toContain('chat_post_message');
    const changed = nextListChanged();
    connectChat(statusSource);
    await changed;
    const listed = names(await client.listTools());
    expect(listed).toContain('chat_post_message');
    // acme_post_to_chat requires the chat connector: it joins too.
    expect(listed).toContain('acme_post_to_chat');
  });

  it('recheck() reports whether the exposed tools changed', async () => {
    const { client, gateway, statusSource, nextListChanged } = await connectGateway((source) =>
      connectAcme(source),
    );
    await client.listTools();
    expect(await gateway.recheck()).toBe(false);
    const changed = nextListChanged();
    statusSource.disconnect(subject, 'acme');
    expect(await gateway.recheck()).toBe(true);
    await changed;
    expect(names(await client.listTools())).toEqual(['refresh_connector_status']);
  });

  it.each<{ status: number; headers: Record<string, string>; errorType: string }>([
    { status: 429, headers: { 'retry-after': '120' }, errorType: 'rate_limited' },
    { status: 401, headers: {}, errorType: 'invalid_credentials' },
  ])(
    'is sent right after a call comes back $errorType, and the connector tools leave the list',
    async ({ status, headers, errorType }) => {
      acme.server.use(
        http.get(
          `${serviceUrl}/tickets/:id`,
          () =>
            new HttpResponse(JSON.stringify({ message: 'no' }), {
              status,
              headers: { 'content-type': 'application/json', ...headers },
            }),
        ),
      );
      const { client, nextListChanged } = await connectGateway((source) => connectAcme(source));
      await client.listTools();
      const changed = nextListChanged();
      const result = await client.callTool({ name: 'acme_get_ticket', arguments: { id: 'T-1' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ ok: false, error_type: errorType });
      expect(JSON.stringify(result)).not.toContain(secretToken);
      await changed;
      expect(names(await client.listTools())).toEqual(['refresh_connector_status']);
    },
  );
});

describe('tools/call', () => {
  it('runs a tool through the orchestrator and answers the envelope as structured content and text', async () => {
    const { client } = await connectGateway((source) => connectAcme(source));
    const result = await client.callTool({
      name: 'acme_get_ticket',
      arguments: { id: 'T-1' },
      _meta: { [correlationIdMetaKey]: 'corr-42' },
    });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      ok: true,
      data: { id: 'T-1', title: 'First' },
      meta: { correlation_id: 'corr-42', tool: 'acme_get_ticket' },
    });
    expect(result._meta).toEqual({ [correlationIdMetaKey]: 'corr-42' });
    const content = result.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(JSON.parse(content[0]!.text)).toEqual({ ok: true, data: { id: 'T-1', title: 'First' } });
    expect(acme.requests).toHaveLength(1);
    // Without one from the host, the gate's own id is in the envelope's meta only, not echoed in `_meta`.
    const unlabelled = await client.callTool({ name: 'acme_get_ticket', arguments: { id: 'T-1' } });
    expect(unlabelled._meta).toBeUndefined();
    expect(
      (unlabelled.structuredContent as { meta: { correlation_id: string } }).meta.correlation_id,
    ).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a destructive tool with approval_required and a proposal id, sending nothing', async () => {
    const { client } = await connectGateway((source) => connectAcme(source));
    const result = await client.callTool({ name: 'acme_delete_ticket', arguments: { id: 'T-1' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, error_type: 'approval_required' });
    expect((result.structuredContent as { proposal_id?: string }).proposal_id).toMatch(/^prop_/);
    expect((result.content as { text: string }[])[0]!.text).toContain('"error_type":"approval_required"');
    expect(acme.requests).toHaveLength(0);
  });

  it('answers a tool that is not exposed with connector_not_configured and the setup URL', async () => {
    const { client } = await connectGateway();
    expect(names(await client.listTools())).toEqual(['refresh_connector_status']);
    const result = await client.callTool({ name: 'acme_get_ticket', arguments: { id: 'T-1' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      connector: 'acme',
      setup_url: 'https://acme.test/connect',
    });
    expect(acme.requests).toHaveLength(0);
  });

  it('answers needs_input for missing arguments, with the question', async () => {
    const { client } = await connectGateway((source) => connectAcme(source));
    const result = await client.callTool({ name: 'acme_create_ticket', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error_type: 'needs_input',
      missing: [{ field: 'title', question: 'What should the ticket be called?' }],
    });
  });

  it('answers an unknown tool with tool_unavailable rather than a protocol error', async () => {
    const { client } = await connectGateway((source) => connectAcme(source));
    const result = await client.callTool({ name: 'nope_missing', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
  });

  it('answers refresh_connector_status with a fresh capture', async () => {
    const { client, statusSource } = await connectGateway((source) => connectAcme(source));
    connectChat(statusSource);
    const result = await client.callTool({ name: 'refresh_connector_status', arguments: {} });
    expect(result.isError).toBe(false);
    const envelope = result.structuredContent as {
      data: { connector_status: Record<string, { status: string; tools?: string[] }> };
    };
    expect(envelope.data.connector_status.chat).toEqual({
      status: 'connected',
      scopes: ['chat:write'],
      tools: ['chat_post_message'],
    });
    expect(JSON.stringify(result)).not.toContain(secretToken);
    expect(JSON.stringify(result)).not.toContain(chatToken);
  });
});

describe('connector status resource and prompt', () => {
  it('serves the per-turn context block as a resource and a prompt', async () => {
    const { client } = await connectGateway((source) => connectAcme(source));
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([connectorStatusResourceUri]);
    const read = await client.readResource({ uri: connectorStatusResourceUri });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toMatch(
      /^<current_time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/current_time>\n<connector_status /,
    );
    expect(text).toContain('"acme":{"scopes":["tickets:read","tickets:write"],"status":"connected"');
    expect(text).toContain('"chat":{"setup_url":"https://chat.test/connect","status":"not_configured"');
    const prompt = await client.getPrompt({ name: connectorStatusPromptName });
    expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('<connector_status ');
  });

  it('tells subscribers when the status behind the resource changes', async () => {
    const { client, gateway, statusSource } = await connectGateway((source) => connectAcme(source));
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) =>
        resolve(notification.params.uri),
      ),
    );
    await client.subscribeResource({ uri: connectorStatusResourceUri });
    statusSource.setRateLimit(subject, 'acme', new Date(Date.now() + 3_600_000));
    await gateway.recheck();
    expect(await updated).toBe(connectorStatusResourceUri);
  });

  it('never names a connector disabled by an admin: not in tools, resource, prompt or refresh', async () => {
    const { client } = await connectGateway((source) => {
      connectAcme(source);
      connectChat(source);
      source.disable('chat');
    });
    const listed = names(await client.listTools());
    expect(listed.some((name) => name.includes('chat'))).toBe(false);
    const descriptions = (await client.listTools()).tools.map((tool) => tool.description).join('\n');
    const resource = JSON.stringify(await client.readResource({ uri: connectorStatusResourceUri }));
    const prompt = JSON.stringify(await client.getPrompt({ name: connectorStatusPromptName }));
    const refresh = JSON.stringify(
      await client.callTool({ name: 'refresh_connector_status', arguments: {} }),
    );
    const instructions = client.getInstructions() ?? '';
    for (const text of [descriptions, resource, prompt, refresh, instructions]) {
      expect(text).not.toContain('chat');
    }
    expect(resource).toContain('acme');
  });
});

describe('options', () => {
  it('needs exactly one of subject and resolveSubject', () => {
    const statusSource = createInMemoryStatusSource();
    const orchestrator = createOrchestrator({ statusSource });
    let thrown: unknown;
    try {
      createMcpGateway({ orchestrator, connectors: [], statusSource });
    } catch (error) {
      thrown = error;
    }
    expect(PatchbayError.isInstance(thrown)).toBe(true);
    expect((thrown as PatchbayError).code).toBe('invalid_gateway_options');
  });

  it('announces the protocol rules as instructions unless turned off', async () => {
    const { client } = await connectGateway();
    expect(client.getInstructions()).toContain('refresh_connector_status');
    expect(client.getInstructions()).toContain('<error_handling>');
    const quiet = await connectGateway(undefined, { instructions: false, name: 'relay', version: '2.1.0' });
    expect(quiet.client.getInstructions()).toBeUndefined();
    expect(quiet.client.getServerVersion()).toMatchObject({ name: 'relay', version: '2.1.0' });
  });
});
