// Child process for the concurrency test: writes rows through the built store as fast as it can.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from '../dist/index.js';

const [home, writerId, countText, mode] = process.argv.slice(2);
const count = Number(countText);
const batchSize = 10;
const store = openStore({ home });
if (mode === 'thread') await barrier();
const won = [];
for (let index = 0; index < count; index += 1) {
  if (mode === 'write') {
    await store.saveConnection(`subject-${writerId}`, {
      connectorId: `c${index}`,
      credentials: { token: `token-${writerId}-${index}` },
      scopes: ['read'],
    });
    await store.audit.append({ writer: writerId, index });
    await store.proposals.create({
      id: `prop_${writerId}_${index}`,
      subject: `subject-${writerId}`,
      tool: 'demo_delete',
      args: { index },
      argsHash: 'hash',
      createdAt: new Date().toISOString(),
      state: 'pending',
    });
  } else if (mode === 'thread') {
    // Several messages per append: the test checks that each batch stays contiguous.
    await store.threads.append(
      'shared-thread',
      Array.from({ length: batchSize }, (_, part) => ({
        role: part % 2 === 0 ? 'user' : 'assistant',
        content: `${writerId}:${index}:${part}`,
      })),
    );
    // A writer that re-takes the lock at once starves the other (SQLite's busy wait backs off):
    // a short pause lets the appends of both processes interleave.
    await sleep(1);
  } else {
    const result = await store.proposals.transition(`prop_shared_${index}`, 'pending', 'approved', {
      decidedBy: writerId,
    });
    if (result) won.push(index);
  }
}
store.close();
process.stdout.write(JSON.stringify({ won }));

// Both writers start appending only once both are open: process start-up alone can take longer
// than a whole run, and then the "concurrent" writers would simply take turns.
async function barrier() {
  writeFileSync(join(home, `ready-${writerId}`), '');
  while (readdirSync(home).filter((name) => name.startsWith('ready-')).length < 2) await sleep(2);
}
