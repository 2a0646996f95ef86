import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { runCli } from '@patchbay/cli';
import { describe, expect, it } from 'vitest';
import { freshHome, occurrences, occurrencesInStoreFiles, testSecretKey } from './security-helpers.js';

// Attack: a connector's verify returns the token (or a piece of it) as the identity. Identity is
// stored unencrypted and printed by `patchbay connect` and `patchbay connectors --json`; before the
// guard the token appeared in both and in the database file.

const token = 'tok_identityecho0123456789abcdefXYZ';
const fixture = join(import.meta.dirname, 'fixtures', 'echo-identity-connector.ts');

function homeWith(mode: 'whole' | 'prefix'): string {
  const home = freshHome();
  writeFileSync(
    join(home, 'patchbay.config.json'),
    JSON.stringify({ connectors: [{ module: fixture, settings: { mode } }] }),
  );
  return home;
}

async function patchbay(home: string, argv: string[]) {
  let output = '';
  const streams = {
    stdout: { write: (text: string) => (output += text) },
    stderr: { write: (text: string) => (output += text) },
    stdin: process.stdin,
  };
  const env = { PATCHBAY_HOME: home, PATCHBAY_SECRET_KEY: testSecretKey, ECHO_TOKEN: token };
  const code = await runCli(argv, streams, env, home);
  return { code, output };
}

/** Counts of the token (or its 16-character prefix) in everything a person or the disk can see. */
function leaks(home: string, ...outputs: string[]) {
  const needles = [token, token.slice(0, 16)];
  return {
    printed: needles.reduce(
      (sum, needle) => sum + outputs.reduce((n, out) => n + occurrences(out, needle), 0),
      0,
    ),
    stored: needles.reduce((sum, needle) => sum + occurrencesInStoreFiles(home, needle), 0),
  };
}

describe('identity is display-only', () => {
  it.each(['whole', 'prefix'] as const)(
    'a verify echoing the token (%s) puts it in 0 printed lines and 0 stored bytes',
    async (mode) => {
      const home = homeWith(mode);
      const connect = await patchbay(home, ['connect', 'echo', '--token-env', 'ECHO_TOKEN']);
      const connectJson = await patchbay(home, ['connect', 'echo', '--token-env', 'ECHO_TOKEN', '--json']);
      const list = await patchbay(home, ['connectors', '--json']);
      expect([connect.code, connectJson.code, list.code]).toEqual([0, 0, 0]);
      expect(leaks(home, connect.output, connectJson.output, list.output)).toEqual({ printed: 0, stored: 0 });
      expect(JSON.parse(list.output).connectors[0]).toMatchObject({ id: 'echo', status: 'connected' });
      expect(JSON.parse(list.output).connectors[0].identity).toBeUndefined();
    },
  );

  it('an identity holding the token written by an older version is not printed', async () => {
    const home = homeWith('whole');
    await patchbay(home, ['connect', 'echo', '--token-env', 'ECHO_TOKEN']);
    const database = new DatabaseSync(join(home, 'patchbay.db'));
    database.prepare('UPDATE connections SET identity = ?').run(`legacy ${token}`);
    database.close();
    const list = await patchbay(home, ['connectors', '--json']);
    const table = await patchbay(home, ['connectors']);
    expect(leaks(home, list.output, table.output).printed).toBe(0);
  });
});
