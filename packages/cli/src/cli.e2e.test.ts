import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeService, startFakeService } from '../test-fixtures/fake-service.js';
import {
  allOutput,
  createHome,
  e2eTimeoutMs,
  ensureBuilt,
  runPatchbay,
  storeFiles,
} from '../test-fixtures/run-patchbay.js';

// Every test here starts CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

let service: FakeService;
const homes: string[] = [];
const secretKey = Buffer.alloc(32, 9).toString('base64');

function home(): string {
  const created = createHome(service.url);
  homes.push(created);
  return created;
}

/** Runs the CLI against a home with the good token available in the environment. */
function patchbay(homeDirectory: string, args: string[], env: Record<string, string> = {}) {
  return runPatchbay(['--home', homeDirectory, ...args], {
    DEMO_TOKEN: service.goodToken,
    REVOKED_TOKEN: service.revokedToken,
    PATCHBAY_SECRET_KEY: secretKey,
    ...env,
  });
}

beforeAll(async () => {
  ensureBuilt();
  service = await startFakeService();
});

afterAll(async () => {
  await service.close();
  for (const directory of homes) rmSync(directory, { recursive: true, force: true });
});

describe('patchbay connect / connectors / context', () => {
  it('connects with a good token and shows it everywhere', async () => {
    const directory = home();
    const connect = await patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN']);
    expect(connect.code).toBe(0);
    expect(connect.stdout).toContain('Connected Demo Service as demo-user');
    expect(connect.stdout).toContain('items:read, items:write');

    const listing = await patchbay(directory, ['connectors']);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toMatch(
      /demo\s+Demo Service\s+connected\s+items:read,items:write\s+2\s+demo-user/,
    );

    const json = await patchbay(directory, ['connectors', '--json']);
    expect(JSON.parse(json.stdout).connectors).toEqual([
      expect.objectContaining({
        id: 'demo',
        status: 'connected',
        scopes: ['items:read', 'items:write'],
        tools: ['demo_delete_item', 'demo_list_items'],
      }),
    ]);

    const context = await patchbay(directory, ['context', '--json']);
    expect(context.code).toBe(0);
    const parsed = JSON.parse(context.stdout) as { context: string; tokens: number };
    expect(parsed.context).toMatch(
      /^<current_time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/current_time>\n<connector_status captured_at="[^"]+">/,
    );
    expect(parsed.context).toContain(
      '{"demo":{"scopes":["items:read","items:write"],"status":"connected","tools":["demo_delete_item","demo_list_items"]}}',
    );
    expect(parsed.tokens).toBeGreaterThan(10);
    const text = await patchbay(directory, ['context']);
    expect(text.stdout).toContain('<connector_status');
    expect(text.stdout).toMatch(/\(\d+ tokens, o200k_base\)/);
  });

  it('refuses a revoked token with exit code 3 and records invalid_credentials', async () => {
    const directory = home();
    const connect = await patchbay(directory, ['connect', 'demo', '--token-env', 'REVOKED_TOKEN']);
    expect(connect.code).toBe(3);
    // The connector's reason once, then what was recorded and what to do: nothing said twice.
    expect(connect.stderr).toBe(
      'Not connected to Demo Service: The demo service rejected the token (revoked or wrong). ' +
        'Recorded as invalid_credentials; check the credentials and run "patchbay connect demo" again.\n',
    );
    const listing = JSON.parse((await patchbay(directory, ['connectors', '--json'])).stdout);
    expect(listing.connectors[0]).toMatchObject({
      id: 'demo',
      status: 'invalid_credentials',
      error: expect.stringContaining('rejected'),
    });
    const context = JSON.parse((await patchbay(directory, ['context', '--json'])).stdout);
    expect(context.context).toContain('"status":"invalid_credentials"');
  });

  it('exits 1, not 3, when the service cannot be reached: nothing was refused, nothing stored', async () => {
    const { createServer } = await import('node:net');
    // A port that was free a moment ago: the connection is refused at once.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const directory = createHome(`http://127.0.0.1:${port}`);
    homes.push(directory);
    const connect = await patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN']);
    expect(connect.code).toBe(1);
    expect(connect.stderr).toBe(
      'Not connected to Demo Service: The demo service could not be reached. ' +
        'Nothing was stored; check the network or the service address and try again.\n',
    );
    const listing = JSON.parse((await patchbay(directory, ['connectors', '--json'])).stdout);
    expect(listing.connectors[0]).toMatchObject({ id: 'demo', status: 'not_configured' });
  });

  it('drops a disabled connector from the context and brings it back on enable', async () => {
    const directory = home();
    expect((await patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN'])).code).toBe(0);
    const disable = await patchbay(directory, ['disable', 'demo']);
    expect(disable.code).toBe(0);
    expect(disable.stdout).toContain('Disabled demo for everyone');
    const context = JSON.parse((await patchbay(directory, ['context', '--json'])).stdout);
    expect(context.context).not.toContain('demo');
    expect(context.context).toContain('<connector_status captured_at=');
    const listing = JSON.parse(
      (await patchbay(directory, ['connectors', '--json', '--user', 'someone-else'])).stdout,
    );
    expect(listing.connectors[0].status).toBe('disabled_by_admin');
    expect((await patchbay(directory, ['enable', 'demo'])).code).toBe(0);
    const after = JSON.parse((await patchbay(directory, ['context', '--json'])).stdout);
    expect(after.context).toContain('"demo":{"scopes"');
  });

  it('disables for one user only with --user-only', async () => {
    const directory = home();
    expect((await patchbay(directory, ['disable', 'demo', '--user', 'alice', '--user-only'])).code).toBe(0);
    const alice = JSON.parse((await patchbay(directory, ['connectors', '--json', '--user', 'alice'])).stdout);
    const bob = JSON.parse((await patchbay(directory, ['connectors', '--json', '--user', 'bob'])).stdout);
    expect(alice.connectors[0].status).toBe('disabled_by_admin');
    expect(bob.connectors[0].status).toBe('not_configured');
  });

  it('keeps users apart and disconnects', async () => {
    const directory = home();
    expect(
      (await patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN', '--user', 'alice'])).code,
    ).toBe(0);
    const bob = JSON.parse(
      (await patchbay(directory, ['connectors', '--json'], { PATCHBAY_USER: 'bob' })).stdout,
    );
    expect(bob.connectors[0].status).toBe('not_configured');
    const disconnect = await patchbay(directory, ['disconnect', 'demo', '--user', 'alice']);
    expect(disconnect.stdout).toContain('Disconnected demo for alice');
    const alice = JSON.parse((await patchbay(directory, ['connectors', '--json', '--user', 'alice'])).stdout);
    expect(alice.connectors[0].status).toBe('not_configured');
  });

  it('stores no plaintext token in the database file or its WAL', async () => {
    const directory = home();
    expect((await patchbay(directory, ['proposals'])).code).toBe(0);
    // An open handle keeps the WAL file alive after the CLI exits, so its bytes can be searched too.
    const watcher = new DatabaseSync(join(directory, 'patchbay.db'));
    watcher.prepare('SELECT count(*) FROM connections').get();
    try {
      expect((await patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN'])).code).toBe(0);
      const files = storeFiles(directory);
      expect(files.map((file) => file.name).sort()).toEqual(
        expect.arrayContaining(['patchbay.db', 'patchbay.db-wal']),
      );
      for (const { bytes } of files) {
        expect(bytes.includes(Buffer.from(service.goodToken))).toBe(false);
        expect(bytes.includes(Buffer.from(Buffer.from(service.goodToken).toString('base64')))).toBe(false);
      }
      // The connection really is stored (the search above is not vacuous).
      const row = watcher.prepare('SELECT length(credentials_ciphertext) AS size FROM connections').get() as {
        size: number;
      };
      expect(row.size).toBeGreaterThan(service.goodToken.length);
    } finally {
      watcher.close();
    }
  });

  it('fails clearly with a wrong secret key', async () => {
    const directory = home();
    expect((await patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN'])).code).toBe(0);
    const wrong = await patchbay(directory, ['connectors'], {
      PATCHBAY_SECRET_KEY: Buffer.alloc(32, 3).toString('hex'),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^patchbay: Stored credentials cannot be decrypted with the secret key from PATCHBAY_SECRET_KEY/,
    );
    expect(wrong.stderr).not.toContain('at ');
  });

  it('creates a key file when no key is configured and reuses it', async () => {
    const directory = home();
    const env = { PATCHBAY_SECRET_KEY: '' };
    expect((await patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN'], env)).code).toBe(0);
    const listing = JSON.parse((await patchbay(directory, ['connectors', '--json'], env)).stdout);
    expect(listing.connectors[0].status).toBe('connected');
  });
});

describe('patchbay with several processes', () => {
  it('keeps every connection when processes connect at the same time', async () => {
    const directory = home();
    const users = Array.from({ length: 6 }, (_, index) => `user${index}`);
    const results = await Promise.all(
      users.map((user) =>
        patchbay(directory, ['connect', 'demo', '--token-env', 'DEMO_TOKEN', '--user', user]),
      ),
    );
    expect(results.map((result) => result.code)).toEqual(users.map(() => 0));
    for (const user of users) {
      const listing = JSON.parse(
        (await patchbay(directory, ['connectors', '--json', '--user', user])).stdout,
      );
      expect(listing.connectors[0]).toMatchObject({ status: 'connected', identity: 'demo-user' });
    }
  });
});

describe('patchbay errors', () => {
  it('suggests close names for an unknown connector', async () => {
    const result = await patchbay(home(), ['connect', 'dmeo', '--token-env', 'DEMO_TOKEN']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Unknown connector "dmeo". Did you mean demo?');
  });

  it('rejects unknown commands and flags with exit code 2', async () => {
    const directory = home();
    const command = await patchbay(directory, ['conectors']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('Did you mean connectors?');
    const flag = await patchbay(directory, ['connectors', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'patchbay: Unknown option --frobnicate for patchbay connectors. Run "patchbay connectors --help".\n',
    );
    const missing = await patchbay(directory, ['connect']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('needs <id>');
  });

  it('asks for credentials it cannot prompt for, naming the flag', async () => {
    const result = await patchbay(home(), ['connect', 'demo']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing credentials for demo: token. Pass --token-env VAR');
    const unset = await patchbay(home(), ['connect', 'demo', '--token-env', 'NOT_SET_ANYWHERE']);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('NOT_SET_ANYWHERE');
  });

  it('never repeats a token pasted where a variable name belongs', async () => {
    const pasted = ['ghp_pastedTokenValue8Kq2', 'xoxb-1234-pastedTokenValue', 'sk live pasted'];
    for (const token of pasted) {
      for (const args of [
        ['--token-env', token],
        ['--field', `token=${token}`],
        ['--field', token],
      ]) {
        const result = await patchbay(home(), ['connect', 'demo', ...args]);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/^patchbay: /);
        expect(result.stderr + result.stdout).not.toContain(token);
      }
    }
  });

  it('reports a corrupt database readably', async () => {
    const directory = home();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(directory, 'patchbay.db'), 'definitely not sqlite '.repeat(100));
    const result = await patchbay(directory, ['proposals']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^patchbay: The Patchbay database .*patchbay\.db is damaged or not a database/,
    );
  });

  it('reports a locked database readably', async () => {
    const directory = home();
    expect((await patchbay(directory, ['proposals'])).code).toBe(0);
    const holder = new DatabaseSync(join(directory, 'patchbay.db'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const result = await patchbay(directory, ['disable', 'demo'], { PATCHBAY_BUSY_TIMEOUT_MS: '200' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('is locked by another process');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});

// Runs last (tests in a file run in order): no output of any run above contained a token.
describe('secrets in output', () => {
  it('never printed a token in any CLI run of this file', () => {
    expect(allOutput.length).toBeGreaterThan(10);
    expect(allOutput.join('')).toContain('demo');
    for (const output of allOutput) {
      expect(output).not.toContain(service.goodToken);
      expect(output).not.toContain(service.revokedToken);
    }
  });
});
