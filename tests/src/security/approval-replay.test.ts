import { DatabaseSync } from 'node:sqlite';
import type { StatusSource } from '@patchbay/connector/ports';
import type { Envelope } from '@patchbay/envelope';
import { createOrchestrator, fromFunction, type Orchestrator } from '@patchbay/orchestrator';
import type { PatchbayStore } from '@patchbay/store';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshHome, storeIn } from './security-helpers.js';

// Issue 33, item 4. Someone with write access to the database file but not the key: after a person
// approved a delete and it ran, they set the row's `state` back to `approved` (or put the whole
// approved row back as it was) and the call is repeated, by the model, by `executeProposal`, and by
// another process on the same file. And a caller who cancels a call before the gate decides on it.
// What is counted: executions that reached the service (must stay 1) and proposals made (must be 0).

const writers: DatabaseSync[] = [];
afterEach(() => {
  for (const writer of writers.splice(0)) writer.close();
});

/** The service behind the tool: every deletion that reached it. */
interface Service {
  deletions: string[];
}

/** An orchestrator on the store as the CLI builds one, with one destructive tool. */
async function gateOn(store: PatchbayStore, service: Service, statusSource: StatusSource = store) {
  const orchestrator = createOrchestrator({ statusSource, proposals: store.proposals, audit: store.audit });
  orchestrator.register(
    fromFunction({
      name: 'records_delete',
      description: 'Deletes one record.',
      input: z.object({ item: z.string().describe('Record id') }),
      effect: 'destructive',
      execute: ({ item }) => {
        service.deletions.push(item);
        return { deleted: item };
      },
    }),
  );
  await orchestrator.start();
  return orchestrator;
}

/** A second connection to the database file, as anyone with write access to it has. */
function rowWriter(store: PatchbayStore) {
  const database = new DatabaseSync(store.location, { timeout: 5000 });
  writers.push(database);
  return {
    set(id: string, columns: Record<string, string | null>) {
      const names = Object.keys(columns);
      database
        .prepare(`UPDATE proposals SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`)
        .run(...names.map((name) => columns[name]!), id);
    },
    read(id: string): Record<string, string | null> {
      return { ...(database.prepare('SELECT * FROM proposals WHERE id = ?').get(id) as object) } as Record<
        string,
        string | null
      >;
    },
  };
}

function proposalIdOf(envelope: Envelope): string {
  expect(envelope).toMatchObject({ ok: false, error_type: 'approval_required' });
  return (envelope as { proposal_id: string }).proposal_id;
}

async function auditEvents(store: PatchbayStore): Promise<string[]> {
  return (await store.audit.list({ limit: 100 })).map((record) => String(record.entry.event));
}

/** A person approves the delete of `item` and it runs (1 execution); returns the proposal id. */
async function approvedAndRun(orchestrator: Orchestrator, item = 'r1'): Promise<string> {
  const id = proposalIdOf(await orchestrator.execute('records_delete', { item }, { subject: 'alice' }));
  expect(await orchestrator.approveAndExecute(id, { decidedBy: 'alice' })).toMatchObject({ ok: true });
  return id;
}

/** Every way the call is repeated: the model's identical call, then `executeProposal` of the id. */
async function repeat(orchestrator: Orchestrator, id: string, item = 'r1') {
  const identical = await orchestrator.execute('records_delete', { item }, { subject: 'alice' });
  const direct = await orchestrator.executeProposal(id);
  return { identical, direct };
}

describe('an executed approval edited back to approved in the database file', () => {
  it('runs 0 more times in the process that ran it: refused, voided, audited', async () => {
    const store = storeIn(freshHome());
    const service: Service = { deletions: [] };
    const orchestrator = await gateOn(store, service);
    const id = await approvedAndRun(orchestrator);
    const writer = rowWriter(store);
    expect(writer.read(id)).toMatchObject({ state: 'executed', decided_by: 'alice', approval_mac: null });
    writer.set(id, { state: 'approved' });
    const { identical, direct } = await repeat(orchestrator, id);
    expect(service.deletions).toEqual(['r1']);
    // The model's repeat is a new proposal for a person; the edited row is voided.
    expect(proposalIdOf(identical)).not.toBe(id);
    expect(direct).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(writer.read(id).state).toBe('expired');
    expect(await auditEvents(store)).toEqual(['proposal_tampered']);
  });

  it('runs 0 more times in another process on the file (or this one after a restart)', async () => {
    const home = freshHome();
    const first = storeIn(home);
    const service: Service = { deletions: [] };
    const id = await approvedAndRun(await gateOn(first, service));
    rowWriter(first).set(id, { state: 'approved' });
    // Nothing of the first process's memory: only the row and the key can say it was used.
    const second = storeIn(home);
    const { identical, direct } = await repeat(await gateOn(second, service), id);
    expect(service.deletions).toEqual(['r1']);
    expect(proposalIdOf(identical)).not.toBe(id);
    expect(direct).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(await auditEvents(second)).toEqual(['proposal_tampered']);
  });

  it('the approved row put back whole (state and approval MAC as they were) runs 0 more times here', async () => {
    const store = storeIn(freshHome());
    const service: Service = { deletions: [] };
    const orchestrator = await gateOn(store, service);
    const id = proposalIdOf(
      await orchestrator.execute('records_delete', { item: 'r1' }, { subject: 'alice' }),
    );
    await orchestrator.approve(id, { decidedBy: 'alice' });
    const writer = rowWriter(store);
    const copy = writer.read(id);
    expect(copy).toMatchObject({ state: 'approved', approval_mac: expect.any(String) });
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: true });
    const restore = () =>
      writer.set(id, { state: 'approved', approval_mac: copy.approval_mac!, decided_at: copy.decided_at! });
    restore();
    const identical = await orchestrator.execute('records_delete', { item: 'r1' }, { subject: 'alice' });
    restore();
    const direct = await orchestrator.executeProposal(id);
    expect(service.deletions).toEqual(['r1']);
    expect(proposalIdOf(identical)).not.toBe(id);
    expect(direct).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(await auditEvents(store)).toEqual(['proposal_tampered', 'proposal_tampered']);
  });

  it('control: an approval nobody touched runs exactly once, and its repeat asks a person again', async () => {
    const store = storeIn(freshHome());
    const service: Service = { deletions: [] };
    const orchestrator = await gateOn(store, service);
    const id = await approvedAndRun(orchestrator);
    const { identical, direct } = await repeat(orchestrator, id);
    expect(service.deletions).toEqual(['r1']);
    expect(proposalIdOf(identical)).not.toBe(id);
    expect(direct).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(await auditEvents(store)).toEqual([]);
  });
});

describe('a call its caller cancelled before the gate decided on it', () => {
  it('with the signal already aborted: 0 proposals, 0 executions', async () => {
    const store = storeIn(freshHome());
    const service: Service = { deletions: [] };
    const orchestrator = await gateOn(store, service);
    const result = await orchestrator.execute(
      'records_delete',
      { item: 'r1' },
      { subject: 'alice', signal: AbortSignal.abort() },
    );
    expect((await store.proposals.list()).map((proposal) => proposal.state)).toEqual([]);
    expect(service.deletions).toEqual([]);
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
  });

  it('cancelled while the gate read its status: 0 proposals, 0 executions', async () => {
    const store = storeIn(freshHome());
    const service: Service = { deletions: [] };
    const controller = new AbortController();
    // The user presses stop while the gate awaits the database: after routing, before approval.
    const cancelling: StatusSource = {
      load: async (subject) => {
        controller.abort();
        return store.load(subject);
      },
      markRateLimited: (subject, connectorId, until) => store.markRateLimited(subject, connectorId, until),
      markInvalidCredentials: (subject, connectorId, error) =>
        store.markInvalidCredentials(subject, connectorId, error),
    };
    const orchestrator = await gateOn(store, service, cancelling);
    const result = await orchestrator.execute(
      'records_delete',
      { item: 'r1' },
      { subject: 'alice', signal: controller.signal },
    );
    expect((await store.proposals.list()).map((proposal) => proposal.state)).toEqual([]);
    expect(service.deletions).toEqual([]);
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
  });
});
