import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PatchbayConfig } from './config.js';
import { discoverConnectors, isV1Connector } from './discover-connectors.js';
import { closeNames, didYouMean } from './suggest.js';

const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A module source defining a minimal v1 connector factory whose setupUrl shows the settings it got. */
function connectorModule(id: string, options: { instance?: boolean } = {}): string {
  const name = `create${id.charAt(0).toUpperCase()}${id.slice(1)}`;
  return `
export function ${name}(settings = {}) {
  return { specificationVersion: 'v1', id: '${id}', name: '${id}', tools: [], setupUrl: settings.baseUrl ?? 'default', verify: async () => ({ valid: true, scopes: [] }) };
}
${options.instance === false ? '' : `export const ${id} = ${name}();`}
export const notAConnector = { id: 'x' };
`;
}

function workspace(): string {
  const directory = mkdtempSync(join(tmpdir(), 'patchbay-discovery-'));
  directories.push(directory);
  return directory;
}

function installPackage(
  root: string,
  name: string,
  source: string,
  exportsField: unknown = { '.': { import: './index.mjs' } },
) {
  const directory = join(root, 'node_modules', ...name.split('/'));
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(directory, 'package.json'),
    JSON.stringify({ name, type: 'module', exports: exportsField }),
  );
  writeFileSync(join(directory, 'index.mjs'), source);
}

function config(directory: string, overrides: Partial<PatchbayConfig> = {}): PatchbayConfig {
  return {
    path: join(directory, 'patchbay.config.json'),
    directory,
    connectors: [],
    settings: {},
    ...overrides,
  };
}

describe('discoverConnectors', () => {
  it('finds installed @patchbay/connector-* packages and passes per-connector settings to the factory', async () => {
    const root = workspace();
    installPackage(root, '@patchbay/connector-alpha', connectorModule('alpha'));
    installPackage(
      root,
      '@patchbay/connector-beta',
      connectorModule('beta', { instance: false }),
      './index.mjs',
    );
    installPackage(root, '@patchbay/envelope', 'export const alpha = 1;');
    const nested = join(root, 'project', 'src');
    mkdirSync(nested, { recursive: true });
    const discovery = await discoverConnectors({
      config: config(root, { settings: { alpha: { baseUrl: 'https://alpha.internal' } } }),
      searchFrom: [nested],
    });
    expect(discovery.warnings).toEqual([]);
    expect(
      discovery.connectors.map((item) => [item.connector.id, item.origin, item.connector.setupUrl]),
    ).toEqual([
      ['alpha', '@patchbay/connector-alpha', 'https://alpha.internal'],
      ['beta', '@patchbay/connector-beta', 'default'],
    ]);
  });

  it('loads modules listed in the config, which win over packages with the same id', async () => {
    const root = workspace();
    installPackage(root, '@patchbay/connector-alpha', connectorModule('alpha'));
    writeFileSync(join(root, 'local-alpha.mjs'), connectorModule('alpha'));
    writeFileSync(join(root, 'gamma.mjs'), connectorModule('gamma'));
    const discovery = await discoverConnectors({
      config: config(root, {
        connectors: [
          { module: './local-alpha.mjs', settings: { baseUrl: 'https://configured' } },
          { module: './gamma.mjs' },
        ],
      }),
      searchFrom: [root],
    });
    expect(
      discovery.connectors.map((item) => [item.connector.id, item.origin, item.connector.setupUrl]),
    ).toEqual([
      ['alpha', './local-alpha.mjs', 'https://configured'],
      ['gamma', './gamma.mjs', 'default'],
    ]);
  });

  it('warns about modules without connectors and fails on a missing configured module', async () => {
    const root = workspace();
    installPackage(root, '@patchbay/connector-empty', 'export const nothing = 1;');
    installPackage(root, '@patchbay/connector-broken', 'throw new Error("boom at import");');
    const discovery = await discoverConnectors({ config: config(root), searchFrom: [root] });
    expect(discovery.connectors).toEqual([]);
    expect(discovery.warnings).toEqual(
      expect.arrayContaining([
        '@patchbay/connector-empty: exports no v1 connector',
        expect.stringMatching(/^@patchbay\/connector-broken: cannot be loaded: boom at import/),
      ]),
    );
    await expect(
      discoverConnectors({
        config: config(root, { connectors: [{ module: './missing.mjs' }] }),
        searchFrom: [root],
      }),
    ).rejects.toMatchObject({ code: 'connector_module_missing' });
  });

  it('recognises only v1 connectors', () => {
    expect(isV1Connector({ specificationVersion: 'v1', id: 'a', tools: [], verify: async () => ({}) })).toBe(
      true,
    );
    expect(isV1Connector({ specificationVersion: 'v2', id: 'a', tools: [], verify: async () => ({}) })).toBe(
      false,
    );
    expect(isV1Connector({ id: 'a' })).toBe(false);
    expect(isV1Connector(null)).toBe(false);
  });
});

describe('closeNames', () => {
  it('suggests typos and prefixes, not unrelated names', () => {
    expect(closeNames('githb', ['github', 'gitlab', 'slack'])).toEqual(['github', 'gitlab']);
    expect(closeNames('sla', ['github', 'slack'])).toEqual(['slack']);
    expect(closeNames('zzzzzz', ['github', 'slack'])).toEqual([]);
    expect(didYouMean('slak', ['slack'])).toBe(' Did you mean slack?');
    expect(didYouMean('zzzzzz', ['slack'])).toBe('');
  });
});
