// Child process for the concurrency test: writes rows through the built store as fast as it can.
import { openStore } from '../dist/index.js';

const [home, writerId, countText, mode] = process.argv.slice(2);
const count = Number(countText);
const store = openStore({ home });
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
  } else {
    const result = await store.proposals.transition(`prop_shared_${index}`, 'pending', 'approved', {
      decidedBy: writerId,
    });
    if (result) won.push(index);
  }
}
store.close();
process.stdout.write(JSON.stringify({ won }));
