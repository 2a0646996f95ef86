// Child process for the status-cache test: another process on the same database. Each line on
// stdin is `disable <connector> <subject>` or `enable <connector> <subject>`; the admin rule is
// written through the built store, and `done` is printed once it is committed.
import { createInterface } from 'node:readline';
import { openStore } from '../dist/index.js';

const [url, secretKey] = process.argv.slice(2);
const store = openStore({ url, secretKey, env: {} });
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const [verb, connectorId, subject] = line.trim().split(' ');
  if (verb === 'disable') await store.disableConnector(connectorId, subject);
  else if (verb === 'enable') await store.enableConnector(connectorId, subject);
  else if (verb === 'quit') break;
  process.stdout.write('done\n');
}
await store.close();
