import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PatchbayConfig } from './config.js';
import { discoverConnectors, isConnectorPackageName, isV1Connector } from './discover-connectors.js';
import { closeNames, didYouMean } from './suggest.js';

const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  globalThis.clientCalls = undefined;
});

/**
 * A module source defining a minimal v1 connector factory whose setupUrl shows the settings it got,
 * declared as `connectorFactory` unless `declare: false`. Like most connectors it also exports a
 * client helper, `createAuthClient` (named to sort before most factories, as a guess would try it
 * first), which counts its calls on `globalThis.clientCalls` and throws.
 */
function connectorModule(id: string, options: { instance?: boolean; declare?: boolean } = {}): string {
  const name = `create${id.charAt(0).toUpperCase()}${id.slice(1)}`;
  return `
export function ${name}(settings = {}) {
  return { specificationVersion: 'v1', id: '${id}', name: '${id}', tools: [], setupUrl: settings.baseUrl ?? 'default', verify: async () => ({ valid: true, scopes: [] }) };
}
export function createAuthClient() {
  globalThis.clientCalls = (globalThis.clientCalls ?? 0) + 1;
  throw new Error('a client helper is not a connector factory');
}
${options.instance === false ? '' : `export const ${id} = ${name}();`}
${options.declare === false ? '' : `export const connectorFactory = ${name};`}
export const notAConnector = { id: 'x' };
`;
}

declare global {
  var clientCalls: number | undefined;
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
    // Only the declared factory runs: the exported create*Client helpers were never called.
    expect(globalThis.clientCalls).toBeUndefined();
  });

  it('finds packages named patchbay-connector-* in any scope, and any package the config lists', async () => {
    const root = workspace();
    installPackage(root, 'patchbay-connector-gamma', connectorModule('gamma'));
    installPackage(root, '@acme/patchbay-connector-delta', connectorModule('delta'));
    installPackage(root, 'acme-crm', connectorModule('crm'));
    installPackage(root, '@acme/tools', connectorModule('tools'));
    const unlisted = await discoverConnectors({ config: config(root), searchFrom: [root] });
    expect(unlisted.connectors.map((item) => [item.connector.id, item.origin])).toEqual([
      ['delta', '@acme/patchbay-connector-delta'],
      ['gamma', 'patchbay-connector-gamma'],
    ]);
    const listed = await discoverConnectors({
      config: config(root, {
        connectors: [{ module: 'acme-crm' }],
        settings: { crm: { baseUrl: 'https://crm' } },
      }),
      searchFrom: [root],
    });
    expect(listed.warnings).toEqual([]);
    expect(
      listed.connectors.map((item) => [item.connector.id, item.origin, item.connector.setupUrl]),
    ).toEqual([
      ['crm', 'acme-crm', 'https://crm'],
      ['delta', '@acme/patchbay-connector-delta', 'default'],
      ['gamma', 'patchbay-connector-gamma', 'default'],
    ]);
    expect(globalThis.clientCalls).toBeUndefined();
  });

  it('skips a package without a connectorFactory declaration with a warning that says what to export', async () => {
    const root = workspace();
    // Exports a connector, its factory and a client helper, but declares none of them.
    installPackage(root, '@patchbay/connector-legacy', connectorModule('legacy', { declare: false }));
    installPackage(root, '@patchbay/connector-alpha', connectorModule('alpha'));
    const discovery = await discoverConnectors({ config: config(root), searchFrom: [root] });
    expect(discovery.connectors.map((item) => item.connector.id)).toEqual(['alpha']);
    expect(discovery.warnings).toEqual([
      expect.stringMatching(
        /^@patchbay\/connector-legacy: declares no connector \(it must export connectorFactory/,
      ),
    ]);
    expect(globalThis.clientCalls).toBeUndefined();
  });

  it('warns when the declared factory throws or returns something else', async () => {
    const root = workspace();
    installPackage(
      root,
      '@patchbay/connector-throws',
      'export const connectorFactory = () => { throw new Error("no site configured"); };',
    );
    installPackage(root, '@patchbay/connector-odd', 'export const connectorFactory = () => ({ id: "odd" });');
    const discovery = await discoverConnectors({ config: config(root), searchFrom: [root] });
    expect(discovery.connectors).toEqual([]);
    expect(discovery.warnings.sort()).toEqual([
      '@patchbay/connector-odd: connectorFactory() did not return a v1 connector',
      '@patchbay/connector-throws: connectorFactory() failed: no site configured',
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
        expect.stringMatching(/^@patchbay\/connector-empty: declares no connector/),
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

  it('uses the default instance a module already built instead of building another one', async () => {
    const root = workspace();
    // The factory counts its calls: the module's own default instance is one; discovery adds none
    // when no settings apply, and exactly one when the config has settings for the id.
    const counting = (id: string) =>
      connectorModule(id).replace(
        'return {',
        'globalThis.clientCalls = (globalThis.clientCalls ?? 0) + 1;\n  return {',
      );
    installPackage(root, '@patchbay/connector-gamma', counting('gamma'));
    const discovery = await discoverConnectors({ config: config(root), searchFrom: [root] });
    expect(discovery.connectors.map((item) => item.connector.setupUrl)).toEqual(['default']);
    expect(globalThis.clientCalls).toBe(1);

    globalThis.clientCalls = undefined;
    installPackage(root, '@patchbay/connector-delta', counting('delta'));
    const configured = await discoverConnectors({
      config: config(root, { settings: { delta: { baseUrl: 'https://delta.example' } } }),
      searchFrom: [root],
    });
    expect(configured.connectors.map((item) => item.connector.setupUrl)).toEqual([
      'https://delta.example',
      'default',
    ]);
    // delta's module: its default instance and the configured one; gamma's module was loaded before.
    expect(globalThis.clientCalls).toBe(2);
  });

  it('takes only the naming conventions as unlisted connector packages', () => {
    for (const name of [
      '@patchbay/connector-github',
      'patchbay-connector-crm',
      '@acme/patchbay-connector-crm',
    ]) {
      expect(isConnectorPackageName(name)).toBe(true);
    }
    for (const name of [
      '@patchbay/connector',
      '@patchbay/cli',
      'connector-github',
      '@acme/crm',
      'patchbay',
    ]) {
      expect(isConnectorPackageName(name)).toBe(false);
    }
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
