import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectorStatusPromptName, connectorStatusResourceUri, createMcpGateway } from './mcp-gateway.js';

const wouldEnable = ['Post messages to team channels', 'Tell the team when a deploy finishes'];

const chat = createFixtureConnector({
  id: 'chat',
  wouldEnable,
  tools: [
    {
      name: 'chat_post_message',
      description: 'Posts a message.',
      input: z.object({ text: z.string().describe('Message text') }),
      effect: 'write',
    },
  ],
});

describe('the per-turn block over MCP', () => {
  it('keeps every would_enable entry: the gateway’s instructions carry no catalog listing them', async () => {
    const statusSource = createInMemoryStatusSource();
    const orchestrator = createOrchestrator({ statusSource, connectors: [chat] });
    const gateway = createMcpGateway({
      orchestrator,
      connectors: [chat],
      statusSource,
      subject: 'user-1',
      refreshIntervalMs: 0,
    });
    const client = new Client({ name: 'context-test', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverTransport);
    await client.connect(clientTransport);
    try {
      expect(client.getInstructions()).not.toContain('<connector_catalog>');
      const read = await client.readResource({ uri: connectorStatusResourceUri });
      const prompt = await client.getPrompt({ name: connectorStatusPromptName });
      for (const text of [
        (read.contents[0] as { text: string }).text,
        (prompt.messages[0]!.content as { text: string }).text,
      ]) {
        const block = /<connector_status[^>]*>(.*?)<\/connector_status>/s.exec(text);
        const status = JSON.parse(block![1]!) as Record<string, { would_enable?: string[] }>;
        expect(status.chat?.would_enable).toEqual(wouldEnable);
      }
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it("uses the deployment's status-block settings in the resource, the prompt and refresh_connector_status", async () => {
    const statusSource = createInMemoryStatusSource();
    const appPage = 'https://app.example.com/connections/chat';
    const orchestrator = createOrchestrator({
      statusSource,
      connectors: [chat],
      setupUrls: { chat: appPage },
    });
    await orchestrator.start();
    const gateway = createMcpGateway({
      orchestrator,
      connectors: [chat],
      statusSource,
      subject: 'user-1',
      refreshIntervalMs: 0,
      statusBlock: { setupUrls: { chat: appPage } },
    });
    const client = new Client({ name: 'context-test', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverTransport);
    await client.connect(clientTransport);
    try {
      const read = await client.readResource({ uri: connectorStatusResourceUri });
      expect((read.contents[0] as { text: string }).text).toContain(appPage);
      const prompt = await client.getPrompt({ name: connectorStatusPromptName });
      expect((prompt.messages[0]!.content as { text: string }).text).toContain(appPage);
      const refreshed = await client.callTool({ name: 'refresh_connector_status', arguments: {} });
      expect(refreshed.structuredContent).toMatchObject({
        ok: true,
        data: { connector_status: { chat: { status: 'not_configured', setup_url: appPage } } },
      });
      const call = await client.callTool({ name: 'chat_post_message', arguments: { text: 'hi' } });
      expect(call.structuredContent).toMatchObject({
        error_type: 'connector_not_configured',
        setup_url: appPage,
      });
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
