import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectorFactory } from '@patchbay/connector';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { afterEach } from 'vitest';
import { packagesUnder } from '../workspace.js';

/** A fixed 32-byte key, so tests never write a key file unless they mean to. */
export const testSecretKey = Buffer.alloc(32, 9).toString('base64');

const homes: string[] = [];
const stores: PatchbayStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A fresh Patchbay home, removed after the test. */
export function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-security-'));
  homes.push(home);
  return home;
}

/** A real SQLite store in `home`, closed after the test. */
export function storeIn(home: string, options: Parameters<typeof openStore>[0] = {}): PatchbayStore {
  const store = openStore({ home, secretKey: testSecretKey, env: {}, ...options });
  stores.push(store);
  return store;
}

/** How often `needle` occurs in every store file (database, WAL, shared memory) of a home. */
export function occurrencesInStoreFiles(home: string, needle: string): number {
  let count = 0;
  for (const name of readdirSync(home).filter((file) => file.startsWith('patchbay.db'))) {
    count += occurrences(readFileSync(join(home, name)).toString('latin1'), needle);
  }
  return count;
}

/** How often `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/**
 * Every connector package of the workspace (`connectors/*`) with its declared factory, by id, read
 * from the directory rather than listed by hand: a connector added later is attacked too, and one
 * the tests package cannot import (not in its devDependencies) fails loudly instead of being skipped.
 */
export async function workspaceConnectorFactories(): Promise<Record<string, ConnectorFactory>> {
  const factories: Record<string, ConnectorFactory> = {};
  for (const { name, manifest } of packagesUnder('connectors')) {
    const module = (await import(manifest.name as string)) as { connectorFactory?: ConnectorFactory };
    if (typeof module.connectorFactory !== 'function') {
      throw new Error(`${manifest.name} declares no connectorFactory`);
    }
    factories[name] = module.connectorFactory;
  }
  return factories;
}
