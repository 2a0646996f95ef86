// Process A of the announcement benchmark: connects one connector at a time through the built
// store, each after process B says it is ready for the next, and prints nothing.
import { createInterface } from 'node:readline';
import { openStore } from '../dist/index.js';

const [url, home] = process.argv.slice(2);
const store = openStore({ url, home });
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'end') break;
  const [subject, connectorId] = line.split(' ');
  await store.saveConnection(subject, { connectorId, credentials: { token: 'bench-token' }, scopes: [] });
  process.stdout.write('written\n');
}
await store.close();
