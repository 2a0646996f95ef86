import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeAuditSinkContract,
  describeCheckpointerContract,
  describeProposalStoreContract,
  describeResumeLedgerContract,
  describeStatusSourceContract,
  describeThreadStoreContract,
  describeWatchableStatusSourceContract,
} from '@patchbay/testing';
import { proposalWriter } from '../test/status-writer.js';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const secretKey = Buffer.alloc(32, 5).toString('base64');

/**
 * A fresh store file per test; `reopen` opens a second handle on the same file, as another
 * process would, and `close` closes every handle and removes the file.
 */
async function sqliteStore() {
  const home = await mkdtemp(join(tmpdir(), 'patchbay-contract-'));
  const handles: PatchbayStore[] = [];
  const open = () => {
    const store = openStore({ home, secretKey, env: {} });
    handles.push(store);
    return store;
  };
  return {
    store: open(),
    reopen: open,
    async close() {
      for (const handle of handles) handle.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

describeStatusSourceContract('SQLite', async () => {
  const { store, reopen, close } = await sqliteStore();
  return {
    source: store,
    connect: (subject, connectorId, { credentials, scopes }) =>
      store.saveConnection(subject, { connectorId, credentials, scopes }),
    disable: (connectorId, subject) => store.disableConnector(connectorId, subject),
    reopen,
    close,
  };
});

describeProposalStoreContract('SQLite', async () => {
  const { store, reopen, close } = await sqliteStore();
  return { store: store.proposals, reopen: () => reopen().proposals, close };
});

describeThreadStoreContract('SQLite', async () => {
  const { store, reopen, close } = await sqliteStore();
  return { threads: store.threads, reopen: () => reopen().threads, close };
});

describeCheckpointerContract('SQLite', async () => {
  const { store, reopen, close } = await sqliteStore();
  return { checkpointer: store, reopen, close };
});

describeResumeLedgerContract('SQLite', async () => {
  const { store, reopen, close } = await sqliteStore();
  return { ledger: store.resumeLedger, reopen: () => reopen().resumeLedger, close };
});

describeAuditSinkContract('SQLite', async () => {
  const { store, close } = await sqliteStore();
  return {
    sink: store.audit,
    entries: async () => (await store.audit.list({ limit: 10_000 })).map((record) => record.entry),
    close,
  };
});

describeWatchableStatusSourceContract('SQLite', async () => {
  const { store, reopen, close } = await sqliteStore();
  return { source: store, writer: proposalWriter(reopen()), close };
});
