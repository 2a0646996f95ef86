import { defineTool } from '@patchbay/connector';
import type { ProposalStore } from '@patchbay/connector/ports';
import { success } from '@patchbay/envelope';
import { createFixtureConnector } from '@patchbay/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createCountingAgent, createTestStatusSource } from '../test/support.js';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';
import { createOrchestrator } from './orchestrator.js';

// Counts what one approval and one call cost the stores and the schema: the status source loaded,
// the proposal store read, the proposal's MACs verified, the tool's zod schema run. Each figure is
// what the work needs once; a second read, check or parse of the same thing is double work.

const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock('./proposal-mac.js', async (importActual) => {
  const actual = await importActual<typeof import('./proposal-mac.js')>();
  return {
    ...actual,
    verifyProposal: (...args: Parameters<typeof actual.verifyProposal>) => {
      verifications.count += 1;
      return actual.verifyProposal(...args);
    },
  };
});

const subject = 'user-1';

function setup() {
  let parses = 0;
  const ran: unknown[] = [];
  const input = z.object({ id: z.string().trim().describe('Record id') }).superRefine(() => {
    parses += 1;
  });
  const connector = createFixtureConnector({
    id: 'records',
    tools: [
      defineTool({
        name: 'records_delete',
        description: 'Deletes one record.',
        input,
        effect: 'destructive',
        requiredScopes: ['records:write'],
        execute: async (value) => {
          ran.push(value);
          return success({ deleted: value.id });
        },
      }),
      defineTool({
        name: 'records_get',
        description: 'Reads one record.',
        input,
        effect: 'read',
        requiredScopes: ['records:write'],
        execute: async (value) => {
          ran.push(value);
          return success({ id: value.id });
        },
      }),
    ],
  });
  const statusSource = createTestStatusSource();
  statusSource.connect(subject, {
    connectorId: 'records',
    credentials: { token: 'records-token-123456' },
    scopes: ['records:write'],
  });
  const store = createInMemoryProposalStore();
  const reads = { get: 0, list: 0 };
  const proposals: ProposalStore = {
    ...store,
    async get(id) {
      reads.get += 1;
      return store.get(id);
    },
    async list(filter) {
      reads.list += 1;
      return store.list(filter);
    },
  };
  const orchestrator = createOrchestrator({
    statusSource,
    proposals,
    connectors: [connector],
    proposalKey: new Uint8Array(32).fill(3),
  });
  return { orchestrator, statusSource, reads, ran, parses: () => parses };
}

afterEach(() => {
  verifications.count = 0;
});

describe('approveAndExecute does each check once', () => {
  it('reads the proposal once, loads status once and verifies the MACs once, and runs the call once', async () => {
    const { orchestrator, statusSource, reads, ran } = setup();
    await orchestrator.start();
    const proposed = await orchestrator.execute('records_delete', { id: 'r1' }, { subject });
    expect(proposed).toMatchObject({ ok: false, error_type: 'approval_required' });
    const id = (proposed as { proposal_id: string }).proposal_id;
    const before = { loads: statusSource.loads(), get: reads.get, list: reads.list };
    verifications.count = 0;

    expect(await orchestrator.approveAndExecute(id, { decidedBy: 'alice' })).toMatchObject({
      ok: true,
      data: { deleted: 'r1' },
    });
    expect(statusSource.loads() - before.loads).toBe(1);
    expect(reads.get - before.get).toBe(1);
    expect(reads.list - before.list).toBe(0);
    expect(verifications.count).toBe(1);
    expect(ran).toEqual([{ id: 'r1' }]);
    // Single use holds all the same: the proposal is executed and cannot run again.
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(ran).toHaveLength(1);
    await orchestrator.stop();
  });

  it('approve and executeProposal apart still verify the stored approval before it runs', async () => {
    const { orchestrator, ran } = setup();
    await orchestrator.start();
    const proposed = await orchestrator.execute('records_delete', { id: 'r2' }, { subject });
    const id = (proposed as { proposal_id: string }).proposal_id;
    verifications.count = 0;
    await orchestrator.approve(id, { decidedBy: 'alice' });
    expect(verifications.count).toBe(1);
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: true });
    // The approval read back from the store is checked again: it was written outside this call.
    expect(verifications.count).toBe(2);
    expect(ran).toHaveLength(1);
    await orchestrator.stop();
  });
});

describe("a call's arguments go through the tool's zod schema once in the gate", () => {
  it('validation hands the parsed value to the run: one parse, and the tool gets the parsed value', async () => {
    const { orchestrator, ran, parses } = setup();
    await orchestrator.start();
    expect(await orchestrator.execute('records_get', { id: '  r3  ' }, { subject })).toMatchObject({
      ok: true,
      data: { id: 'r3' },
    });
    expect(parses()).toBe(1);
    expect(ran).toEqual([{ id: 'r3' }]);
    await orchestrator.stop();
  });

  it('arguments that fail the schema are answered by validation and never reach the tool', async () => {
    const { orchestrator, ran } = setup();
    await orchestrator.start();
    expect(await orchestrator.execute('records_get', { id: 42 }, { subject })).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
    });
    expect(ran).toHaveLength(0);
    await orchestrator.stop();
  });
});

describe('a changed tool definition voids only that tool’s open proposals, found by index', () => {
  it('reads the changed tool’s proposals only, not every open proposal of every tool', async () => {
    const store = createInMemoryProposalStore();
    let returned = 0;
    const filters: unknown[] = [];
    const proposals: ProposalStore = {
      ...store,
      async list(filter) {
        filters.push(filter);
        const found = await store.list(filter);
        returned += found.length;
        return found;
      },
    };
    const orchestrator = createOrchestrator({
      statusSource: createTestStatusSource(),
      proposals,
      proposalKey: new Uint8Array(32).fill(5),
    });
    const changing = createCountingAgent({
      id: 'changing',
      tools: [{ name: 'remote_delete', effect: 'destructive', description: 'Deletes one record.' }],
    });
    const other = createCountingAgent({
      id: 'other',
      tools: [{ name: 'remote_purge', effect: 'destructive', description: 'Purges one record.' }],
    });
    orchestrator.register(changing);
    orchestrator.register(other);
    await orchestrator.start();
    for (let index = 0; index < 20; index += 1) {
      await orchestrator.execute('remote_purge', { text: `p${index}` }, { subject });
    }
    const open = await orchestrator.execute('remote_delete', { text: 'r1' }, { subject });
    const id = (open as { proposal_id: string }).proposal_id;
    returned = 0;
    filters.length = 0;

    changing.setTools([{ ...changing.tools()[0]!, description: 'Deletes every record.' }]);
    // Voiding runs on the tool-list announcement, without a promise to await: wait for its last read.
    await vi.waitFor(async () => {
      expect(filters).toHaveLength(2);
      expect((await store.get(id))?.state).toBe('expired');
    });
    // One pending proposal of the changed tool was read; the 20 of the other tool were not.
    expect(returned).toBe(1);
    expect(filters).toEqual([
      { state: 'pending', tool: 'remote_delete' },
      { state: 'approved', tool: 'remote_delete' },
    ]);
    expect(
      (await store.list({ state: 'pending' })).filter((item) => item.tool === 'remote_purge'),
    ).toHaveLength(20);
    await orchestrator.stop();
  });
});
