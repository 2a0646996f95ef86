import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { npmNetworkEnv, root } from './workspace.js';

/**
 * The guide for a connector in its own repository (contributing/add-a-connector.md, "Outside this
 * repository"), tried end to end where a user would: a temporary directory outside the workspace,
 * the core packages as the tarballs `pnpm pack` publishes, nothing reaching back into the checkout.
 * Packing three packages, an install (from pnpm's cache when it has the packages, else the npm
 * registry), tsc, vitest and tsup on the generated package: ~45 s quiet, a few minutes with both
 * cores busy. 10 minutes for the test and each child, so only a hang fails it.
 */
const timeoutMs = 600_000;

const core = ['envelope', 'connector', 'helpers', 'testing'];

describe('a connector outside the monorepo', { timeout: timeoutMs }, () => {
  const temp = mkdtempSync(join(tmpdir(), 'patchbay-standalone-'));
  const network = npmNetworkEnv();
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  const run = (command: string, args: string[], cwd: string) => {
    const result = spawnSync(command, args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...network, FORCE_COLOR: '0', CI: 'true' },
      timeout: timeoutMs,
    });
    return {
      status: result.status,
      stdout: result.stdout,
      output: `${result.stdout}${result.stderr}${result.error ?? ''}`,
    };
  };

  it('is generated, installed from packed tarballs, type-checked, tested, built and discovered by the CLI', () => {
    const packs = join(temp, 'packs');
    mkdirSync(packs);
    for (const name of core) {
      const packed = run('pnpm', ['pack', '--pack-destination', packs], join(root, 'packages', name));
      expect(packed.status, packed.output).toBe(0);
    }
    const tarballs = readdirSync(packs);
    expect(tarballs).toHaveLength(core.length);

    const generated = run(
      process.execPath,
      [join(root, 'scripts/new-connector.mjs'), 'acme', '--name', 'Acme CRM', '--standalone', '--dir', temp],
      temp,
    );
    expect(generated.status, generated.output).toBe(0);
    const project = join(temp, 'acme');
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('patchbay-connector-acme');
    // Nothing points back into the checkout: no workspace ranges, no ../../ configs.
    for (const file of ['package.json', 'tsconfig.json', 'vitest.config.ts', 'README.md']) {
      const text = readFileSync(join(project, file), 'utf8');
      expect(text, file).not.toMatch(/workspace:|\.\.\/\.\.\/|@patchbay\/source/);
    }
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toContain('pnpm add patchbay-connector-acme');

    // The published packages, as a user would get them from the registry: their tarballs.
    const override = (name: string) => {
      const tarball = tarballs.find((file) => file.startsWith(`patchbay-${name}-`));
      return `  "@patchbay/${name}": "file:${join(packs, tarball as string)}"`;
    };
    writeFileSync(
      join(project, 'pnpm-workspace.yaml'),
      ['allowBuilds:', '  esbuild: true', 'overrides:', ...core.map(override), ''].join('\n'),
    );
    const installed = run('pnpm', ['install', '--prefer-offline'], project);
    expect(installed.status, installed.output).toBe(0);

    const typecheck = run('pnpm', ['run', 'typecheck'], project);
    expect(typecheck.status, typecheck.output).toBe(0);
    const tests = run('pnpm', ['test'], project);
    expect(tests.status, tests.output).toBe(0);
    const result = JSON.parse(readFileSync(join(project, '.vitest-result.json'), 'utf8'));
    // The two example tools' tests plus the conformance suite, which alone contributes dozens.
    expect({ failed: result.numFailedTests, enough: result.numPassedTests > 30 }).toEqual({
      failed: 0,
      enough: true,
    });
    const built = run('pnpm', ['run', 'build'], project);
    expect(built.status, built.output).toBe(0);
    expect(existsSync(join(project, 'dist/index.d.ts'))).toBe(true);

    // An app that installed it: the CLI finds it by its name and its connectorFactory declaration.
    const app = join(temp, 'app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}');
    symlinkSync(project, join(app, 'node_modules', 'patchbay-connector-acme'));
    const listed = run(
      process.execPath,
      [join(root, 'packages/cli/dist/cli.js'), 'connectors', '--json', '--home', join(temp, 'home')],
      app,
    );
    expect(listed.status, listed.output).toBe(0);
    const status = JSON.parse(listed.stdout);
    expect(status.connectors.find((entry: { id: string }) => entry.id === 'acme')).toMatchObject({
      name: 'Acme CRM',
      status: 'not_configured',
    });
  });
});
