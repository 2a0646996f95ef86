import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@patchbay/store';
import { afterEach, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function streams() {
  let out = '';
  let err = '';
  return {
    streams: {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      stdin: process.stdin,
    },
    output: () => ({ out, err }),
  };
}

it('writes to the database --database-url names, not to the home', async () => {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-cli-db-'));
  homes.push(home);
  const { streams: io, output } = streams();
  const module = join(import.meta.dirname, '..', 'test-fixtures', 'demo-connector.mjs');
  writeFileSync(join(home, 'patchbay.config.json'), JSON.stringify({ connectors: [{ module }] }));
  const file = join(home, 'elsewhere', 'team.db');
  const code = await runCli(['disable', 'demo', '--home', home, '--database-url', file], io, {});
  expect(output().err).toBe('');
  expect(code).toBe(0);
  const chosen = openStore({ path: file, home, env: {} });
  const homeStore = openStore({ home, env: {} });
  try {
    expect((await chosen.listPolicy()).map((rule) => rule.connectorId)).toEqual(['demo']);
    expect(await homeStore.listPolicy()).toEqual([]);
  } finally {
    chosen.close();
    homeStore.close();
  }
});

it('reads PATCHBAY_DATABASE_URL when no flag is given, and never prints a database password', async () => {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-cli-db-'));
  homes.push(home);
  const { streams: io, output } = streams();
  const module = join(import.meta.dirname, '..', 'test-fixtures', 'demo-connector.mjs');
  writeFileSync(join(home, 'patchbay.config.json'), JSON.stringify({ connectors: [{ module }] }));
  // Nothing listens on port 1: the command fails, and its error must not show the password.
  const code = await runCli(['disable', 'demo', '--home', home], io, {
    PATCHBAY_DATABASE_URL: 'postgres://ops:pw-canary-91c2@127.0.0.1:1/patchbay',
  });
  expect(code).toBe(1);
  expect(output().err).toMatch(
    /patchbay: The Patchbay database postgres:\/\/ops:\*\*\*@127\.0\.0\.1:1\/patchbay failed/,
  );
  expect(`${output().out}${output().err}`).not.toContain('pw-canary-91c2');
});

it('refuses a misspelt database URL instead of creating a SQLite file named after it', async () => {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-cli-db-'));
  homes.push(home);
  const cwd = mkdtempSync(join(tmpdir(), 'patchbay-cli-cwd-'));
  homes.push(cwd);
  const module = join(import.meta.dirname, '..', 'test-fixtures', 'demo-connector.mjs');
  writeFileSync(join(home, 'patchbay.config.json'), JSON.stringify({ connectors: [{ module }] }));
  for (const url of ['postgress://ana:hunter2-secret@db.example/patchbay', 'mysql://db.example/patchbay']) {
    const { streams: io, output } = streams();
    const code = await runCli(['disable', 'demo', '--home', home, '--database-url', url], io, {}, cwd);
    expect(code).not.toBe(0);
    expect(output().err).toMatch(/not a database Patchbay opens/);
    expect(output().err).not.toContain('hunter2-secret');
  }
  // Nothing was created where a relative path would have put the file.
  expect(readdirSync(cwd)).toEqual([]);
});
