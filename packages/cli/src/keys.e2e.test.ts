import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyId, openStore, type PatchbayStore } from '@patchbay/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  allOutput,
  cliBinary,
  e2eTimeoutMs,
  ensureBuilt,
  runPatchbay,
} from '../test-fixtures/run-patchbay.js';

// Every test here starts CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });
ensureBuilt();

const oldKey = Buffer.alloc(32, 31).toString('base64');
const newKey = Buffer.alloc(32, 32).toString('base64');
const homes: string[] = [];
const stores: PatchbayStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const subjects = Array.from({ length: 8 }, (_, index) => `user${index}`);
const connectorIds = ['github', 'slack', 'jira', 'linear', 'notion'];
const tokenOf = (subject: string, connectorId: string) => `tok-${subject}-${connectorId}-${'z'.repeat(24)}`;

function open(home: string, env: NodeJS.ProcessEnv): PatchbayStore {
  const store = openStore({ home, env });
  stores.push(store);
  return store;
}

/** A home with 40 credentials sealed under the old key, and the new key in an owner-only file. */
async function seededHome(): Promise<{ home: string; keyFile: string }> {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-keys-e2e-'));
  homes.push(home);
  const store = open(home, { PATCHBAY_SECRET_KEY: oldKey });
  for (const subject of subjects)
    for (const connectorId of connectorIds)
      await store.saveConnection(subject, {
        connectorId,
        credentials: { token: tokenOf(subject, connectorId) },
        scopes: [],
      });
  const keyFile = join(home, 'new.key');
  writeFileSync(keyFile, `${newKey}\n`, { mode: 0o600 });
  return { home, keyFile };
}

async function expectAllReadableWithNewKeyOnly(home: string): Promise<void> {
  const store = open(home, { PATCHBAY_SECRET_KEY: newKey });
  for (const subject of subjects) {
    const { connections } = await store.load(subject);
    expect(
      Object.fromEntries(
        connections.map((connection) => [connection.connectorId, connection.credentials.token]),
      ),
    ).toEqual(
      Object.fromEntries(connectorIds.map((connectorId) => [connectorId, tokenOf(subject, connectorId)])),
    );
  }
}

describe('patchbay keys rotate', () => {
  it('re-encrypts every credential under the key from --new-key-file and prints no key', async () => {
    const { home, keyFile } = await seededHome();
    const result = await runPatchbay(['keys', 'rotate', '--new-key-file', keyFile, '--home', home], {
      PATCHBAY_SECRET_KEY: oldKey,
    });
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    const id = keyId(Buffer.from(newKey, 'base64'));
    expect(result.stdout).toContain(
      `Re-encrypted 40 credentials; every credential is now sealed with key ${id}`,
    );
    await expectAllReadableWithNewKeyOnly(home);
    await expect(open(home, { PATCHBAY_SECRET_KEY: oldKey }).load('user0')).rejects.toMatchObject({
      code: 'wrong_secret_key',
    });
    const audited = (await open(home, { PATCHBAY_SECRET_KEY: newKey }).audit.list()).map(
      (record) => record.entry,
    );
    expect(audited).toContainEqual(
      expect.objectContaining({ event: 'secret_key_rotated', key_id: id, rotated: 40 }),
    );
    for (const output of allOutput) {
      expect(output).not.toContain(newKey);
      expect(output).not.toContain(oldKey);
    }
  });

  it('loses nothing when killed mid-way, and a rerun finishes the rest', async () => {
    const { home, keyFile } = await seededHome();
    const child = spawn(
      process.execPath,
      [cliBinary, 'keys', 'rotate', '--new-key-file', keyFile, '--batch-size', '1', '--home', home],
      {
        env: { PATH: process.env.PATH ?? '', HOME: home, PATCHBAY_SECRET_KEY: oldKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // Killed (no chance to clean up) as soon as the first batch is committed.
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Re-encrypted')) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => resolve());
    });
    await new Promise((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.on('exit', resolve),
    );

    // Mid-way: instances with the new key and the old one as previous read every credential.
    const both = open(home, { PATCHBAY_SECRET_KEY: newKey, PATCHBAY_PREVIOUS_SECRET_KEYS: oldKey });
    for (const subject of subjects) expect((await both.load(subject)).connections).toHaveLength(5);

    const rerun = await runPatchbay(['keys', 'rotate', '--json', '--home', home], {
      PATCHBAY_SECRET_KEY: newKey,
      PATCHBAY_PREVIOUS_SECRET_KEYS: oldKey,
      PATCHBAY_NEW_SECRET_KEY: newKey,
    });
    expect(rerun.code).toBe(0);
    const report = JSON.parse(rerun.stdout) as { key_id: string; rotated: number };
    expect(report.key_id).toBe(keyId(Buffer.from(newKey, 'base64')));
    // The killed run committed at least its first batch; the rerun did the rest.
    expect(report.rotated).toBeLessThan(40);
    await expectAllReadableWithNewKeyOnly(home);
  });

  it('refuses a new key file others can read, and a missing new key, changing nothing', async () => {
    const { home, keyFile } = await seededHome();
    chmodSync(keyFile, 0o644);
    const loose = await runPatchbay(['keys', 'rotate', '--new-key-file', keyFile, '--home', home], {
      PATCHBAY_SECRET_KEY: oldKey,
    });
    expect(loose.code).toBe(2);
    expect(loose.stderr).toContain('chmod 600');
    const missing = await runPatchbay(['keys', 'rotate', '--home', home], { PATCHBAY_SECRET_KEY: oldKey });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('PATCHBAY_NEW_SECRET_KEY');
    expect((await open(home, { PATCHBAY_SECRET_KEY: oldKey }).load('user0')).connections).toHaveLength(5);
  });
});
