import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Envelope } from '@patchbay/envelope';
import { canonicalJson } from '@patchbay/helpers';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const secretKey = Buffer.alloc(32, 3).toString('base64');
const homes: string[] = [];
const stores: PatchbayStore[] = [];
const writers: DatabaseSync[] = [];

afterEach(() => {
  for (const writer of writers.splice(0)) writer.close();
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** The fake service: every call that reached it, with whose call it was. */
interface Execution {
  subject: string;
  tool: string;
  item: string;
}

function openHome(home: string): PatchbayStore {
  const store = openStore({ home, secretKey, env: {} });
  stores.push(store);
  return store;
}

/** An orchestrator exactly as the CLI builds one on the store, with two destructive tools. */
async function gateOn(store: PatchbayStore, executions: Execution[]) {
  const tool = (name: string) =>
    fromFunction({
      name,
      description: `${name} one item.`,
      input: z.object({ item: z.string().describe('Item id') }),
      effect: 'destructive',
      execute: ({ item }, context) => {
        executions.push({ subject: context.subject, tool: name, item });
        return { done: item };
      },
    });
  const orchestrator = createOrchestrator({
    statusSource: store,
    proposals: store.proposals,
    audit: store.audit,
  });
  orchestrator.register(tool('demo_delete'));
  orchestrator.register(tool('demo_wipe'));
  await orchestrator.start();
  return orchestrator;
}

/** A second connection to the database file, as anyone with write access to it has. */
function tamperingWriter(store: PatchbayStore) {
  const database = new DatabaseSync(store.location, { timeout: 5000 });
  writers.push(database);
  return (id: string, columns: Record<string, string | null>) => {
    const names = Object.keys(columns);
    database
      .prepare(`UPDATE proposals SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`)
      .run(...names.map((name) => columns[name]!), id);
  };
}

function sha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function proposalIdOf(envelope: Envelope): string {
  expect(envelope).toMatchObject({ ok: false, error_type: 'approval_required' });
  return (envelope as { proposal_id: string }).proposal_id;
}

async function setup() {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-tamper-'));
  homes.push(home);
  const store = openHome(home);
  const executions: Execution[] = [];
  const orchestrator = await gateOn(store, executions);
  const id = proposalIdOf(await orchestrator.execute('demo_delete', { item: 'a1' }, { subject: 'alice' }));
  return { home, store, executions, orchestrator, id, tamper: tamperingWriter(store) };
}

async function auditEvents(store: PatchbayStore): Promise<string[]> {
  return (await store.audit.list({ limit: 100 })).map((record) => String(record.entry.event));
}

describe('a tampering writer on the database file', () => {
  const rewrites: [string, Record<string, string>][] = [
    [
      'arguments and their hash',
      { args: '{"item":"everything"}', args_hash: sha256({ item: 'everything' }) },
    ],
    ['subject (another user’s credentials)', { subject: 'bob' }],
    ['tool', { tool: 'demo_wipe' }],
  ];
  for (const [what, columns] of rewrites) {
    it(`rewriting the ${what} of an approved proposal runs nothing`, async () => {
      const { store, executions, orchestrator, id, tamper } = await setup();
      await orchestrator.approve(id, { decidedBy: 'alice' });
      tamper(id, columns);
      const result = await orchestrator.executeProposal(id);
      expect(result).toMatchObject({ ok: false, error_type: 'conflict' });
      expect((result as { user_message: string }).user_message).toMatch(
        /was changed after it was proposed or approved/,
      );
      expect(executions).toEqual([]);
      expect((await store.proposals.get(id))?.state).toBe('expired');
      expect(await auditEvents(store)).toEqual(['proposal_tampered']);
    });

    it(`rewriting the ${what} of a pending proposal makes approving it fail`, async () => {
      const { store, executions, orchestrator, id, tamper } = await setup();
      tamper(id, columns);
      await expect(orchestrator.approve(id)).rejects.toMatchObject({ code: 'proposal_tampered' });
      expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false });
      expect(executions).toEqual([]);
      expect(await auditEvents(store)).toEqual(['proposal_tampered']);
    });
  }

  it('an approval written into the row by hand authorises nothing', async () => {
    const { store, executions, orchestrator, id, tamper } = await setup();
    tamper(id, { state: 'approved', decided_at: new Date().toISOString(), decided_by: 'alice' });
    // The identical call the model makes next is not run on the forged approval.
    const next = await orchestrator.execute('demo_delete', { item: 'a1' }, { subject: 'alice' });
    expect(proposalIdOf(next)).not.toBe(id);
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(executions).toEqual([]);
    expect(await auditEvents(store)).toEqual(['proposal_tampered']);
  });

  it('a proposal row without a MAC (older version, or inserted by hand) is refused', async () => {
    const { executions, orchestrator, id, tamper } = await setup();
    tamper(id, { mac: null });
    await expect(orchestrator.approve(id)).rejects.toMatchObject({ code: 'proposal_tampered' });
    expect(executions).toEqual([]);
  });

  it('an untouched proposal made by one process is approved and run once by another', async () => {
    const { home, executions, id } = await setup();
    const elsewhere: Execution[] = [];
    const other = await gateOn(openHome(home), elsewhere);
    expect(await other.approveAndExecute(id, { decidedBy: 'ops' })).toMatchObject({ ok: true });
    expect(elsewhere).toEqual([{ subject: 'alice', tool: 'demo_delete', item: 'a1' }]);
    expect(executions).toEqual([]);
    expect(await other.approveAndExecute(id).catch((error) => error.code)).toBe('proposal_not_pending');
  });
});
