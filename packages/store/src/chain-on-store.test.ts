import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { defineChain } from '@patchbay/sacp';
import { turnAgentRunner } from '@patchbay/sacp/orchestrator';
import { createFixtureConnector } from '@patchbay/testing';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const homes: string[] = [];
const stores: PatchbayStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const notes = createFixtureConnector({
  id: 'notes',
  tools: [
    defineTool({
      name: 'notes_read',
      description: 'Reads a note.',
      input: z.object({ title: z.string().describe('Note title') }),
      effect: 'read',
      // In-process stand-in for the notes service.
      execute: async ({ title }) => success({ title, body: 'Ship on Friday.' }),
    }),
  ],
});

describe('a SACP chain on the store', () => {
  it('uses the store for status, node threads and the audit log with no glue', async () => {
    const home = mkdtempSync(join(tmpdir(), 'patchbay-chain-store-'));
    homes.push(home);
    const store = openStore({ home, secretKey: Buffer.alloc(32, 9).toString('base64'), env: {} });
    stores.push(store);
    await store.saveConnection('ana', {
      connectorId: 'notes',
      credentials: { token: 'notes-secret' },
      scopes: [],
    });
    const orchestrator = createOrchestrator({ statusSource: store, connectors: [notes] });
    await orchestrator.start();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'notes_read', input: { title: 'release' } }] },
      '{"thought":"Read it.","status":"success","data":{"day":"Friday"},"message":"We ship on Friday."}',
    ]);
    const chain = defineChain({
      id: 'release',
      start: 'reader',
      nodes: { reader: { model, system: 'You read notes.' } },
      runAgent: turnAgentRunner({
        orchestrator,
        connectors: [notes],
        statusSource: store,
        subject: 'ana',
        threadStore: store.threads,
      }),
      audit: store.audit,
    });

    const result = await chain.run('When do we ship?', { correlationId: 'run-7' });
    await orchestrator.stop();

    expect(result.reply).toMatchObject({ status: 'success', data: { day: 'Friday' } });
    const thread = await store.threads.load('sacp:run-7:reader');
    expect(thread?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(JSON.stringify(thread?.messages[2])).toContain('Ship on Friday.');
    const audited = (await store.audit.list()).map((record) => record.entry);
    expect(audited).toEqual([
      expect.objectContaining({
        event: 'sacp_reply',
        correlation_id: 'run-7',
        node: 'reader',
        status: 'success',
      }),
    ]);
  });
});
