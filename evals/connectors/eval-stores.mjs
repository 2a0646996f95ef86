// Real stores for `store:` scenarios: @patchbay/store's `openStore`, fresh for each run and removed
// after it. SQLite always (a file in a new temporary directory); Postgres where PATCHBAY_DATABASE_URL
// names a server (CI: postgres://root@127.0.0.1:5432/test), each run in a schema of its own that is
// dropped afterwards, so runs in parallel and runs of other processes never see each other's rows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
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

/** `UPDATE proposals SET <columns> WHERE id = <id>` with one placeholder style (`?` or `$n`). */
function proposalUpdate(columns, placeholder) {
  const names = Object.keys(columns);
  const sets = names.map((name, index) => {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`not a column name: ${name}`);
    return `${name} = ${placeholder(index + 1)}`;
  });
  return {
    sql: `UPDATE proposals SET ${sets.join(', ')} WHERE id = ${placeholder(names.length + 1)}`,
    values: names.map((name) => columns[name]),
  };
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
        // A second connection to the database file, as anyone with write access to it has.
        async setProposal(id, columns) {
          const database = new DatabaseSync(store.location, { timeout: 5000 });
          try {
            const { sql, values } = proposalUpdate(columns, () => '?');
            database.prepare(sql).run(...values, id);
          } finally {
            database.close();
          }
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
      // A connection of its own, as anyone with the database's password has.
      async setProposal(id, columns) {
        const pg = createRequire(import.meta.resolve('@patchbay/store'))('pg');
        const client = new pg.Client({ connectionString: server });
        await client.connect();
        try {
          await client.query(`SET search_path TO ${schema}`);
          const { sql, values } = proposalUpdate(columns, (position) => `$${position}`);
          await client.query(sql, [...values, id]);
        } finally {
          await client.end();
        }
      },
    };
  },
};
