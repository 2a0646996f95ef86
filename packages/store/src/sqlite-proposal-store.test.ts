import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Proposal } from '@patchbay/connector/ports';
import { afterEach, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { proposalsOfToolInStateSql, type SqliteProposalStore } from './sqlite-proposal-store.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function proposal(id: string, tool: string, state: Proposal['state'] = 'pending'): Proposal {
  return {
    id,
    subject: 'alice',
    tool,
    args: { item: id },
    argsHash: 'abc',
    createdAt: `2026-01-01T00:00:0${id.length % 10}.000Z`,
    state,
  };
}

it("lists one tool's proposals in one state by the (tool, state) index, not by reading every row", async () => {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-proposals-'));
  homes.push(home);
  const store = openStore({ home, secretKey: Buffer.alloc(32, 2).toString('hex'), env: {} });
  // The store's own class: `tool` is its filter beyond the port's.
  const proposals = store.proposals as SqliteProposalStore;
  try {
    for (let index = 0; index < 30; index += 1) {
      await proposals.create(proposal(`p${index}`, 'demo_purge'));
    }
    await proposals.create(proposal('d1', 'demo_delete'));
    await proposals.create(proposal('d2', 'demo_delete', 'approved'));
    expect(
      (await proposals.list({ state: 'pending', tool: 'demo_delete' })).map((found) => found.id),
    ).toEqual(['d1']);
    const ofTool = await proposals.list({ tool: 'demo_delete' });
    expect(ofTool.map((found) => found.id).sort()).toEqual(['d1', 'd2']);
    expect(await proposals.list({ state: 'pending' })).toHaveLength(31);
  } finally {
    store.close();
  }
  const database = new DatabaseSync(join(home, 'patchbay.db'));
  try {
    const plan = database
      .prepare(`EXPLAIN QUERY PLAN ${proposalsOfToolInStateSql}`)
      .all('demo_delete', 'pending') as { detail: string }[];
    expect(plan.map((step) => step.detail).join('\n')).toContain('USING INDEX proposals_by_tool_state');
  } finally {
    database.close();
  }
});
