import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeAuditSinkContract,
  describeCheckpointerContract,
  describeMemoryStoreContract,
  describeProposalStoreContract,
  describeResumeLedgerContract,
  describeStatusSourceContract,
  describeThreadStoreContract,
  describeWatchableStatusSourceContract,
} from '@patchbay/testing';
import { describePostgres, freshSchema } from '../test/postgres-server.js';
import { proposalWriter } from '../test/status-writer.js';
import { openPostgresStore } from './open-postgres-store.js';
import type { PostgresStore } from './postgres-store.js';

const secretKey = Buffer.alloc(32, 5).toString('base64');

/**
 * A fresh schema per test; `reopen` opens a second pool on it, as another process would, and
 * `close` closes every pool and drops the schema.
 */
async function postgresStore() {
  const { url, drop } = freshSchema('contract');
  const home = await mkdtemp(join(tmpdir(), 'patchbay-pg-contract-'));
  const handles: PostgresStore[] = [];
  const open = async () => {
    const store = await openPostgresStore({ url, home, secretKey, env: {}, poolSize: 4 });
    handles.push(store);
    return store;
  };
  return {
    store: await open(),
    reopen: open,
    async close() {
      for (const handle of handles) await handle.close();
      await drop();
      await rm(home, { recursive: true, force: true });
    },
  };
}

describePostgres('Postgres store contracts', () => {
  describeStatusSourceContract('Postgres', async () => {
    const { store, reopen, close } = await postgresStore();
    return {
      source: store,
      connect: (subject, connectorId, { credentials, scopes }) =>
        store.saveConnection(subject, { connectorId, credentials, scopes }),
      disable: (connectorId, subject) => store.disableConnector(connectorId, subject),
      reopen,
      close,
    };
  });

  describeMemoryStoreContract('Postgres', async () => {
    const { store, close } = await postgresStore();
    return { memory: store.memory, close };
  });

  describeProposalStoreContract('Postgres', async () => {
    const { store, reopen, close } = await postgresStore();
    return { store: store.proposals, reopen: async () => (await reopen()).proposals, close };
  });

  describeThreadStoreContract('Postgres', async () => {
    const { store, reopen, close } = await postgresStore();
    return { threads: store.threads, reopen: async () => (await reopen()).threads, close };
  });

  describeCheckpointerContract('Postgres', async () => {
    const { store, reopen, close } = await postgresStore();
    return { checkpointer: store, reopen, close };
  });

  describeResumeLedgerContract('Postgres', async () => {
    const { store, reopen, close } = await postgresStore();
    return { ledger: store.resumeLedger, reopen: async () => (await reopen()).resumeLedger, close };
  });

  describeAuditSinkContract('Postgres', async () => {
    const { store, close } = await postgresStore();
    return {
      sink: store.audit,
      entries: async () => (await store.audit.list({ limit: 10_000 })).map((record) => record.entry),
      close,
    };
  });

  describeWatchableStatusSourceContract('Postgres', async () => {
    const { store, reopen, close } = await postgresStore();
    return {
      source: store,
      writer: proposalWriter(await reopen()),
      subscribed: () => store.listening(),
      close,
    };
  });
});
