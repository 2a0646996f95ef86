import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PatchbayError } from '@patchbay/envelope';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Node 20 has no node:sqlite. A static import of it fails the whole package at load with Node's bare
// ERR_UNKNOWN_BUILTIN_MODULE; the store loads it when a SQLite database is opened, and says what
// Node it needs. (Checked once on a real Node 20.20: openStore() answers with the message below.)

const sourceDir = new URL('.', import.meta.url);

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

describe('the store on a Node without node:sqlite', () => {
  it('loads, and openStore() refuses with the Node version needed and the one in use', async () => {
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(() => undefined as never);
    vi.resetModules();
    const { openStore } = await import('./open-store.js');
    const home = mkdtempSync(join(tmpdir(), 'patchbay-node20-'));
    try {
      let thrown: unknown;
      try {
        openStore({ home, secretKey: Buffer.alloc(32, 1).toString('base64'), env: {} });
      } catch (error) {
        thrown = error;
      }
      expect(PatchbayError.isInstance(thrown)).toBe(true);
      const message = (thrown as Error).message;
      expect(message).toContain('^22.22.2 || ^24.15.0 || >=26.0.0');
      expect(message).toContain(`this is Node.js ${process.versions.node}`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('names the range engines.node names', async () => {
    const { supportedNodeRange } = await import('./node-sqlite.js');
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(supportedNodeRange).toBe(manifest.engines.node);
  });

  it('has no source file that imports node:sqlite as a value', () => {
    const offenders = readdirSync(sourceDir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .filter((name) =>
        /^import\s+(?!type\b)[^;]*from\s+'node:sqlite'/m.test(readFileSync(new URL(name, sourceDir), 'utf8')),
      );
    expect(offenders).toEqual([]);
  });
});
