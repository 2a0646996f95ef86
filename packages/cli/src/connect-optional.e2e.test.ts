import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@patchbay/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { e2eTimeoutMs, ensureBuilt, packageDirectory, runPatchbay } from '../test-fixtures/run-patchbay.js';

// Every test here starts CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

const secretKey = Buffer.alloc(32, 13).toString('base64');
const apiKey = 'regional-key-Zt81QpW3nLx5';
const homes: string[] = [];

/** A home whose config loads only the connector with optional credential fields. */
function regionalHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-cli-optional-'));
  homes.push(home);
  const module = join(packageDirectory, 'test-fixtures', 'regional-connector.mjs');
  writeFileSync(join(home, 'patchbay.config.json'), JSON.stringify({ connectors: [{ module }] }));
  return home;
}

function patchbay(home: string, args: string[], env: Record<string, string> = {}) {
  return runPatchbay(['--home', home, ...args], { PATCHBAY_SECRET_KEY: secretKey, ...env });
}

/** The credentials stored for the default user, read back through the store. */
async function storedCredentials(home: string): Promise<Record<string, string> | undefined> {
  const store = openStore({ home, env: { PATCHBAY_SECRET_KEY: secretKey } });
  try {
    const state = await store.load('default');
    return state.connections.find((connection) => connection.connectorId === 'regional')?.credentials;
  } finally {
    store.close();
  }
}

beforeAll(() => ensureBuilt());
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('patchbay connect with optional credential fields', () => {
  it('connects without the optional fields and stores only the required one', async () => {
    const home = regionalHome();
    // No REGIONAL_REGION, no --field workspace, and stdin is not a terminal: nothing to prompt either.
    const result = await patchbay(home, ['connect', 'regional'], { REGIONAL_API_KEY: apiKey });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Connected Regional Service as region none, workspace none');
    expect(await storedCredentials(home)).toEqual({ api_key: apiKey });
    expect(result.stdout).not.toContain(apiKey);
  });

  it('stores the optional fields it was given, from their variable and from --field', async () => {
    const home = regionalHome();
    const result = await patchbay(home, ['connect', 'regional', '--field', 'workspace=REGIONAL_WS'], {
      REGIONAL_API_KEY: apiKey,
      REGIONAL_REGION: 'eu-west',
      REGIONAL_WS: 'acme-team',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('as region eu-west, workspace acme-team');
    expect(await storedCredentials(home)).toEqual({
      api_key: apiKey,
      region: 'eu-west',
      workspace: 'acme-team',
    });
  });

  it('still demands the required field, naming only it', async () => {
    const home = regionalHome();
    const result = await patchbay(home, ['connect', 'regional'], { REGIONAL_REGION: 'eu-west' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing credentials for regional: api_key. Pass --token-env VAR');
    expect(await storedCredentials(home)).toBeUndefined();
  });

  it('refuses an optional field named by --field whose variable is unset', async () => {
    const home = regionalHome();
    const result = await patchbay(home, ['connect', 'regional', '--field', 'workspace=UNSET_WS'], {
      REGIONAL_API_KEY: apiKey,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('UNSET_WS');
  });
});
