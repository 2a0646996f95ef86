import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changesetTexts, filesUnder, packagesUnder } from './workspace.js';

const publicPackages = [...packagesUnder('packages'), ...packagesUnder('connectors')];

describe('every public package keeps the house shape', () => {
  it('finds packages to check', () => {
    expect(publicPackages.length).toBeGreaterThanOrEqual(3);
  });

  for (const { dir, name, manifest } of publicPackages) {
    describe(manifest.name ?? name, () => {
      it('is an ESM, side-effect-free, public @patchbay package on Node >= 22', () => {
        expect(manifest.name).toMatch(/^@patchbay\//);
        expect(manifest.type).toBe('module');
        expect(manifest.sideEffects).toBe(false);
        expect(manifest.publishConfig?.access).toBe('public');
        expect(manifest.engines?.node).toMatch(/>=\s*22/);
        expect(manifest.license).toBe('MIT');
      });

      it('has an exports map with types, import and ./package.json', () => {
        expect(manifest.exports?.['./package.json']).toBe('./package.json');
        expect(manifest.exports?.['.']).toMatchObject({
          types: expect.any(String),
          import: expect.any(String),
        });
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
