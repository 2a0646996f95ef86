// Child process for the approval race: approves and runs shared proposals through the built gate
// (MAC checks, compare-and-set) while another process does the same; every run is logged to a file.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { z } from 'zod';
import { openStore } from '../dist/index.js';

const [home, approverId, mode] = process.argv.slice(2);
const store = openStore({ home });
const orchestrator = createOrchestrator({
  statusSource: store,
  proposals: store.proposals,
  audit: store.audit,
});
orchestrator.register(demoDelete(join(home, 'executions.log'), approverId));
await orchestrator.start();
if (mode === 'propose') {
  const ids = [];
  for (let index = 0; index < Number(approverId); index += 1) {
    const envelope = await orchestrator.execute(
      'demo_delete',
      { item: `item-${index}` },
      { subject: 'alice' },
    );
    ids.push(envelope.proposal_id);
  }
  process.stdout.write(JSON.stringify({ ids }));
} else {
  const ids = JSON.parse(readFileSync(join(home, 'ids.json'), 'utf8'));
  await barrier();
  const outcomes = {};
  for (const id of ids) {
    try {
      const envelope = await orchestrator.approveAndExecute(id, { decidedBy: approverId });
      outcomes[id] = envelope.ok ? 'ran' : envelope.error_type;
    } catch (error) {
      outcomes[id] = error.code;
    }
    // Half the time the model's identical call races the approvals too.
    const index = ids.indexOf(id);
    if (index % 2 === 0) {
      await orchestrator.execute('demo_delete', { item: `item-${index}` }, { subject: 'alice' });
    }
  }
  process.stdout.write(JSON.stringify({ outcomes }));
}
await orchestrator.stop();
store.close();

/** The fake service: one line per call that reached it. */
function demoDelete(log, runner) {
  return fromFunction({
    name: 'demo_delete',
    description: 'Deletes one item.',
    input: z.object({ item: z.string().describe('Item id') }),
    effect: 'destructive',
    execute: ({ item }) => {
      appendFileSync(log, `${item} ${runner}\n`);
      return { deleted: item };
    },
  });
}

// Both approvers start only once both are open, so their calls overlap.
async function barrier() {
  writeFileSync(join(home, `ready-${approverId}`), '');
  while (readdirSync(home).filter((name) => name.startsWith('ready-')).length < 2) await sleep(2);
}
