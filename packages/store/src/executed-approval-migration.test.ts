import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { migrate, migrations } from './migrations.js';

it('drops the approval MAC of proposals executed before executing dropped it, and of no other row', () => {
  const database = new DatabaseSync(':memory:');
  const drop = migrations.find((step) => step.name === 'executed_proposals_drop_approval')!;
  // The schema as it was before that step (later steps come after it, so they wait too).
  const before = migrations.filter((step) => step.version < drop.version);
  migrate(database, before);
  const insert = database.prepare(
    `INSERT INTO proposals (id, subject, tool, args, args_hash, created_at, state, approval_mac)
     VALUES (?, 'ana', 'tracker_delete_issue', '{}', 'h', '2026-11-21T15:00:00Z', ?, 'mac-of-the-approval')`,
  );
  insert.run('ran-before', 'executed');
  insert.run('still-approved', 'approved');
  migrate(database);
  const macs = Object.fromEntries(
    (
      database.prepare('SELECT id, approval_mac FROM proposals').all() as {
        id: string;
        approval_mac: string | null;
      }[]
    ).map((row) => [row.id, row.approval_mac]),
  );
  expect(macs).toEqual({ 'ran-before': null, 'still-approved': 'mac-of-the-approval' });
  database.close();
});
