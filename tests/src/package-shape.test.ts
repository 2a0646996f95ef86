import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connector } from '@patchbay/connector';
import { afterAll, describe, expect, it } from 'vitest';
import { anatomyProblems, pascalOf } from './connector-anatomy.js';
import { changesetTexts, filesUnder, packagesUnder, root } from './workspace.js';

const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const publicPackages = [...packagesUnder('packages'), ...packagesUnder('connectors')];

describe('every public package keeps the house shape', () => {
  it('finds packages to check', () => {
    expect(publicPackages.length).toBeGreaterThanOrEqual(3);
  });

  for (const { dir, name, manifest } of publicPackages) {
    describe(manifest.name ?? name, () => {
      it('is an ESM, side-effect-free, public @patchbay package on the supported Node range', () => {
        expect(manifest.name).toMatch(/^@patchbay\//);
        expect(manifest.type).toBe('module');
        expect(manifest.sideEffects).toBe(false);
        expect(manifest.publishConfig?.access).toBe('public');
        // The same range as the root package.json (engines.test.ts checks every manifest).
        expect(manifest.engines?.node).toBe(rootManifest.engines.node);
        expect(manifest.license).toBe('MIT');
      });

      it('has an exports map with types, import, default and ./package.json', () => {
        expect(manifest.exports?.['./package.json']).toBe('./package.json');
        expect(manifest.exports?.['.']).toMatchObject({
          types: expect.any(String),
          import: expect.any(String),
        });
        // `default` is the same ESM file, so require() works on the supported Node (require(esm));
        // without it CommonJS gets "No exports main defined".
        for (const [subpath, target] of Object.entries(manifest.exports as Record<string, unknown>)) {
          if (typeof target !== 'object' || target === null) continue;
          const conditions = target as Record<string, string>;
          expect(conditions.default, subpath).toBe(conditions.import);
          expect(Object.keys(conditions).at(-1), `${subpath}: default comes last`).toBe('default');
        }
      });

      it('publishes only dist and docs', () => {
        expect(manifest.files).toEqual(expect.arrayContaining(['dist']));
        for (const entry of manifest.files as string[]) expect(entry).not.toMatch(/src|test|fixture/);
      });

      it('builds with tsup and tests with vitest', () => {
        expect(existsSync(join(dir, 'tsup.config.ts'))).toBe(true);
        expect(manifest.scripts?.build).toMatch(/tsup/);
        expect(manifest.scripts?.test).toMatch(/vitest run/);
        expect(filesUnder(join(dir, 'src'), /\.test\.ts$/).length).toBeGreaterThan(0);
      });

      it('has a README and a changeset', () => {
        expect(existsSync(join(dir, 'README.md'))).toBe(true);
        expect(changesetTexts().some((text) => text.includes(`"${manifest.name}"`))).toBe(true);
      });
    });
  }
});

const connectors = packagesUnder('connectors');

describe('every connector package is a proper plugin', () => {
  for (const { dir, name, manifest } of connectors) {
    describe(`connectors/${name}`, () => {
      it('is named @patchbay/connector-<id> after its folder', () => {
        expect(manifest.name).toBe(`@patchbay/connector-${name}`);
      });

      it('takes @patchbay/connector and zod as peers', () => {
        expect(Object.keys(manifest.peerDependencies ?? {})).toEqual(
          expect.arrayContaining(['@patchbay/connector', 'zod']),
        );
      });

      it('has a README with install and connect examples', () => {
        const readme = readFileSync(join(dir, 'README.md'), 'utf8');
        expect(readme).toMatch(/## Install/);
        expect(readme).toContain(`@patchbay/connector-${name}`);
        expect(readme).toMatch(new RegExp(`patchbay connect ${name}\\b`));
      });

      it('runs the conformance suite', () => {
        const suites = filesUnder(join(dir, 'src'), /\.test\.ts$/).filter((file) =>
          readFileSync(file, 'utf8').includes('describeConnectorConformance('),
        );
        expect(suites.length).toBeGreaterThan(0);
      });
    });
  }
});

describe('every connector package follows the one connector anatomy', () => {
  for (const { dir, name: id } of connectors) {
    describe(`connectors/${id}`, () => {
      it('has the anatomy’s files, names and tests, and nothing else', () => {
        expect(anatomyProblems(dir, id)).toEqual([]);
      });

      it('exports the factory, the default instance and the connectorFactory declaration it discovers by', async () => {
        const Name = pascalOf(id);
        const module = (await import(pathToFileURL(join(dir, 'src/index.ts')).href)) as Record<
          string,
          unknown
        >;
        expect(Object.keys(module).sort()).toEqual(['connectorFactory', `create${Name}`, id].sort());
        expect(module.connectorFactory).toBe(module[`create${Name}`]);
        const created = (module.connectorFactory as () => Connector)();
        const instance = module[id] as Connector;
        for (const connector of [created, instance]) {
          expect(connector).toMatchObject({ specificationVersion: 'v1', id });
        }
      });

      it('has one tool file per tool, and a scopes file exactly when it declares scopes', async () => {
        const module = (await import(pathToFileURL(join(dir, 'src/index.ts')).href)) as Record<
          string,
          unknown
        >;
        const connector = module[id] as Connector;
        const toolFiles = filesUnder(join(dir, 'src/tools'), /\.ts$/)
          .map((file) => file.slice(join(dir, 'src/tools/').length))
          .filter((file) => file !== 'index.ts' && !file.endsWith('.test.ts'))
          .map((file) => `${id}_${file.slice(0, -'.ts'.length).replaceAll('-', '_')}`);
        expect(connector.tools.map((tool) => tool.name).sort()).toEqual(toolFiles.sort());
        expect(existsSync(join(dir, `src/${id}-scopes.ts`))).toBe(connector.auth.scopes.length > 0);
      });
    });
  }
});

describe('the anatomy rules catch a broken connector', () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });
  /** A copy of connectors/github (sources and manifest only) that a test may break. */
  const githubCopy = () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'patchbay-anatomy-')), 'github');
    copies.push(copy);
    cpSync(join(root, 'connectors/github'), copy, {
      recursive: true,
      filter: (source) => !/node_modules|dist|\.turbo/.test(source.slice(root.length)),
    });
    return copy;
  };

  it('accepts the unbroken copy', () => {
    expect(anatomyProblems(githubCopy(), 'github')).toEqual([]);
  });

  it('names a renamed verify test both as missing and as not an anatomy name', () => {
    const copy = githubCopy();
    renameSync(join(copy, 'src/github-verify.test.ts'), join(copy, 'src/verify.test.ts'));
    expect(anatomyProblems(copy, 'github')).toEqual([
      'src/github-verify.test.ts: missing',
      expect.stringMatching(/^src\/verify\.test\.ts: not an anatomy name/),
    ]);
  });

  it('finds a tool without its test, a tool file named after another tool and an errors file without tests', () => {
    const copy = githubCopy();
    rmSync(join(copy, 'src/tools/get-issue.test.ts'));
    renameSync(join(copy, 'src/tools/close-issue.ts'), join(copy, 'src/tools/shut-issue.ts'));
    rmSync(join(copy, 'src/github-errors.test.ts'));
    expect(anatomyProblems(copy, 'github').sort()).toEqual(
      [
        'src/github-errors.ts: has no github-errors.test.ts',
        'src/tools/close-issue.test.ts: tests nothing (no tools/close-issue.ts beside it)',
        'src/tools/get-issue.ts: has no tools/get-issue.test.ts',
        'src/tools/shut-issue.ts: has no tools/shut-issue.test.ts',
        'src/tools/shut-issue.ts: must define exactly one tool, named github_shut_issue after the file',
      ].sort(),
    );
  });

  it('refuses extra exports, export *, a missing declaration, a wrapper that catches, and stray files', () => {
    const copy = githubCopy();
    writeFileSync(
      join(copy, 'src/index.ts'),
      "export * from './github-scopes.js';\nexport { createGithub, type GithubSettings, github } from './github-connector.js';\nexport { createGithubClient } from './github-client.js';\n",
    );
    const connectorFile = join(copy, 'src/github-connector.ts');
    writeFileSync(
      connectorFile,
      readFileSync(connectorFile, 'utf8').replace(/export const connectorFactory[^;]*;/, ''),
    );
    const clientFile = join(copy, 'src/github-client.ts');
    writeFileSync(
      clientFile,
      `${readFileSync(clientFile, 'utf8')}\nexport async function retried() {\n  try {\n    return 1;\n  } catch (error) {\n    throw error;\n  }\n}\n`,
    );
    writeFileSync(join(copy, 'src/helpers.ts'), 'export const x = 1;\n');
    writeFileSync(join(copy, 'jest.config.js'), '');
    const problems = anatomyProblems(copy, 'github');
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^jest\.config\.js: not part of a connector package/),
        expect.stringMatching(/^src\/helpers\.ts: not an anatomy name/),
        expect.stringMatching(/^src\/index\.ts: only named re-exports are allowed, found "export \* from/),
        'src/index.ts: exports createGithub, GithubSettings, github, createGithubClient; it must export exactly GithubSettings, connectorFactory, createGithub, github',
        expect.stringMatching(/^src\/github-connector\.ts: must declare the connector/),
        "src/github-client.ts: catches errors; pass the service's mapping as mapError instead",
      ]),
    );
    expect(problems).toHaveLength(6);
  });
});
