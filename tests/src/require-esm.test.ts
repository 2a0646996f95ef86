import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagesUnder } from './workspace.js';

const publicPackages = [...packagesUnder('packages'), ...packagesUnder('connectors')];

describe('CommonJS consumers', () => {
  it('require() every built package by name and get its exports', { timeout: 60_000 }, () => {
    // By its own name from inside each package (a self-reference goes through the exports map).
    // Built ones only: this package's own dependencies always are (turbo builds them before its
    // tests), the rest when `pnpm build` ran. One node process for all: ~1 s quiet, seconds when busy.
    const built = publicPackages.filter(({ dir }) => existsSync(join(dir, 'dist/index.js')));
    const names = built.map(({ manifest }) => manifest.name as string);
    expect(names).toEqual(
      expect.arrayContaining(['@patchbay/connector', '@patchbay/envelope', '@patchbay/testing']),
    );
    const script = `
      const { createRequire } = require('node:module');
      const counts = {};
      for (const [name, dir] of JSON.parse(process.argv[1])) {
        try { counts[name] = Object.keys(createRequire(dir)(name)).length; }
        catch (error) { counts[name] = String(error.code ?? error.message); }
      }
      console.log(JSON.stringify(counts));`;
    const result = spawnSync(
      process.execPath,
      [
        '-e',
        script,
        JSON.stringify(built.map(({ dir, manifest }) => [manifest.name, join(dir, 'package.json')])),
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status, result.stderr).toBe(0);
    const counts = JSON.parse(result.stdout) as Record<string, number | string>;
    const failed = Object.entries(counts).filter(([, count]) => typeof count !== 'number' || count === 0);
    expect(failed).toEqual([]);
  });
});
