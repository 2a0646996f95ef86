// Real stores for `store:` scenarios: @patchbay/store's `openStore`, fresh for each run and removed
// after it. SQLite always (a file in a new temporary directory); Postgres where PATCHBAY_DATABASE_URL
// names a server (CI: postgres://root@127.0.0.1:5432/test), each run in a schema of its own that is
// dropped afterwards, so runs in parallel and runs of other processes never see each other's rows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseUrlEnv, openStore } from '@patchbay/store';

const secretKey = Buffer.alloc(32, 11).toString('base64');

/** The Postgres server of this machine, when PATCHBAY_DATABASE_URL names one. */
const postgresUrl = () => {
  const url = process.env[databaseUrlEnv];
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
};

/**
 * Drops a run's schema. The store cannot drop the schema it lives in, so this speaks to the server
 * with the store's own driver (`pg`, its optional peer, installed beside it).
 */
async function dropSchema(url, schema) {
  const pg = createRequire(import.meta.resolve('@patchbay/store'))('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The config's `store`: SQLite, and Postgres where PATCHBAY_DATABASE_URL is set. */
export const evalStore = {
  databases: () => (postgresUrl() ? ['sqlite', 'postgres'] : ['sqlite']),
  async open(database) {
    const home = mkdtempSync(join(tmpdir(), 'patchbay-eval-store-'));
    const removeHome = () => rmSync(home, { recursive: true, force: true });
    if (database === 'sqlite') {
      const store = openStore({ home, secretKey, env: {} });
      return {
        store,
        async close() {
          store.close();
          removeHome();
        },
      };
    }
    const server = postgresUrl();
    if (database !== 'postgres' || !server) {
      removeHome();
      throw new Error(
        database === 'postgres'
          ? `a postgres scenario needs ${databaseUrlEnv} (a postgres:// URL)`
          : `no database "${database}" (sqlite, postgres)`,
      );
    }
    const schema = `pb_eval_${process.pid}_${randomBytes(4).toString('hex')}`;
    const url = new URL(server);
    url.searchParams.set('schema', schema);
    const store = openStore({ url: url.toString(), home, secretKey, env: {} });
    return {
      store,
      async close() {
        try {
          await store.close();
        } finally {
          await dropSchema(server, schema);
          removeHome();
        }
      },
    };
  },
};
