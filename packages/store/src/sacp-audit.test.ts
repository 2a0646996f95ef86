import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineChain, type SacpAuditSink } from '@patchbay/sacp';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const homes: string[] = [];
const stores: PatchbayStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function open(): PatchbayStore {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-sacp-audit-'));
  homes.push(home);
  const store = openStore({ home, secretKey: Buffer.alloc(32, 5).toString('base64'), env: {} });
  stores.push(store);
  return store;
}

describe('store.audit as the SACP audit sink', () => {
  it('is a SacpAuditSink of @patchbay/sacp as it is', () => {
    const store = open();
    const sink: SacpAuditSink = store.audit;
    expect(typeof sink.write).toBe('function');
  });

  it('records every reply of a chain run with correlation id, node, status and repairs', async () => {
    const store = open();
    // The model answers inside a fence, so the parser reports a repair.
    const model = createScriptedModel([
      '```json\n{"thought":"Scored it.","status":"success","data":{"score":0.9},"message":"Looks good."}\n```',
    ]);
    const chain = defineChain({
      id: 'review',
      start: 'scorer',
      nodes: {
        scorer: { model, system: 'You score drafts.' },
        publish: {
          run: async () => ({
            thought: '',
            status: 'completed',
            data: { url: 'https://x.test' },
            message: 'Published.',
          }),
        },
      },
      edges: [{ from: 'scorer', to: 'publish', when: 'data.score > 0.8' }],
      audit: store.audit,
    });
    await store.audit.append({ event: 'unrelated' });
    const result = await chain.run('Draft text', { correlationId: 'run-1' });
    expect(result.state).toBe('done');

    const entries = (await store.audit.list()).map((record) => record.entry);
    const replies = entries.filter((entry) => entry.event === 'sacp_reply');
    expect(replies).toHaveLength(2);
    expect(replies[0]).toMatchObject({
      correlation_id: 'run-1',
      chain_id: 'review',
      node: 'scorer',
      step: 1,
      status: 'success',
      ok: true,
      repairs: ['extracted_from_fence'],
      message: 'Looks good.',
      data_keys: ['score'],
    });
    expect(replies[1]).toMatchObject({
      correlation_id: 'run-1',
      node: 'publish',
      step: 2,
      status: 'completed',
      repairs: [],
    });
    // The record's own time is the entry's time.
    expect(replies[0]!.at).toBe(replies[0]!.timestamp);
    expect(entries[0]).toMatchObject({ event: 'unrelated' });
  });
});
