import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PatchbayError } from '@patchbay/envelope';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptedDatabaseUrls, databaseLocation } from './database-url.js';
import { openStore } from './open-store.js';

const secretKey = new Uint8Array(32).fill(7);
const home = mkdtempSync(join(tmpdir(), 'patchbay-database-url-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

// What people type instead of a URL Patchbay opens: misspelt Postgres, other databases, a missing
// slash, SQLAlchemy's SQLite form. The passwords must never appear in the error.
const refused = [
  'postgress://patchbay:hunter2-password@db.internal:5432/patchbay',
  'postgre://patchbay:hunter2-password@db.internal/patchbay',
  'pg://patchbay:hunter2-password@db.internal/patchbay',
  'postgres:/db.internal/patchbay',
  'mysql://root:hunter2-password@db.internal/patchbay',
  'mariadb://root@db.internal/patchbay',
  'mongodb+srv://cluster0.example.net/patchbay',
  'sqlite:///var/lib/patchbay.db',
  'https://db.internal/patchbay',
];

describe('database URLs', () => {
  it('refuses every unknown scheme before anything is created, from the option or PATCHBAY_DATABASE_URL', () => {
    // The safety property: a refused URL leaves no file and no directory behind, neither where a
    // relative path would land (the working directory) nor in the Patchbay home. Before the check
    // each of these became a new empty SQLite database under `<cwd>/<scheme>:/…`.
    const before = { cwd: readdirSync(process.cwd()), home: readdirSync(home) };
    const errors: unknown[] = [];
    try {
      for (const url of refused) {
        for (const options of [{ url }, { env: { PATCHBAY_DATABASE_URL: url } }]) {
          try {
            const store = openStore({ home, secretKey, env: {}, ...options });
            store.close();
            errors.push(undefined);
          } catch (error) {
            errors.push(error);
          }
        }
      }
      const created = {
        cwd: readdirSync(process.cwd()).filter((name) => !before.cwd.includes(name)),
        home: readdirSync(home).filter((name) => !before.home.includes(name)),
      };
      expect(created).toEqual({ cwd: [], home: [] });
    } finally {
      for (const name of readdirSync(process.cwd()).filter((entry) => !before.cwd.includes(entry))) {
        rmSync(join(process.cwd(), name), { recursive: true, force: true });
      }
    }
    expect(errors).toHaveLength(refused.length * 2);
    for (const error of errors) {
      expect(PatchbayError.isInstance(error)).toBe(true);
      expect((error as PatchbayError).code).toBe('invalid_arguments');
      expect((error as Error).message).toContain(acceptedDatabaseUrls);
      expect((error as Error).message).not.toContain('hunter2');
    }
    expect((errors[1] as Error).message).toMatch(
      /^The database URL in PATCHBAY_DATABASE_URL starts with "postgress:".*Did you mean postgres:\/\/\?/,
    );
    expect((errors[0] as Error).message).toMatch(/^The database URL starts with "postgress:"/);
    expect((errors[8] as Error).message).toContain('"mysql:"');
    expect((errors[8] as Error).message).not.toContain('Did you mean');
  });

  it('still opens a plain path, a file: URL and a Windows-style drive path as SQLite, and postgres URLs as Postgres', () => {
    const path = join(home, 'from-url.db');
    const store = openStore({ home, secretKey, env: {}, url: pathToFileURL(path).href });
    store.close();
    expect(existsSync(path)).toBe(true);
    expect(databaseLocation('data/patchbay.db', 'x')).toEqual({ kind: 'sqlite', path: 'data/patchbay.db' });
    expect(databaseLocation('C:\\data\\patchbay.db', 'x')).toEqual({
      kind: 'sqlite',
      path: 'C:\\data\\patchbay.db',
    });
    for (const url of ['postgres://a@b/c', 'POSTGRESQL://a@b/c?schema=team_a']) {
      expect(databaseLocation(url, 'x')).toEqual({ kind: 'postgres', url });
    }
  });

  it('refuses a file: URL that names no local file', () => {
    expect(() => databaseLocation('file://server.example/share/patchbay.db', 'The database URL')).toThrow(
      /is a file: URL that names no local file/,
    );
  });
});
