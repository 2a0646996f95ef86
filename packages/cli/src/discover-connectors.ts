import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Connector } from '@patchbay/connector';
import { CliError } from './cli-error.js';
import type { PatchbayConfig } from './config.js';

/** A connector and where it came from. */
export interface DiscoveredConnector {
  connector: Connector;
  /** Package name or module path, for messages. */
  origin: string;
}

/** Result of {@link discoverConnectors}: connectors sorted by id, plus problems worth a warning. */
export interface Discovery {
  connectors: DiscoveredConnector[];
  warnings: string[];
}

/**
 * The named export by which a package or module declares its connector: its factory, called with
 * the connector's settings (`export const connectorFactory: ConnectorFactory<Settings> = createAcme`).
 * Discovery calls this export and nothing else, so a helper such as `createAcmeClient` is never run.
 */
export const connectorDeclaration = 'connectorFactory';

/**
 * Package names found in node_modules without being listed: `@patchbay/connector-<id>`, and for
 * connectors published by others `patchbay-connector-<id>` or `@<scope>/patchbay-connector-<id>`.
 * Any other package is used when `patchbay.config.json` lists it.
 */
export function isConnectorPackageName(name: string): boolean {
  return /^(?:@patchbay\/connector-|(?:@[^/]+\/)?patchbay-connector-)[a-z0-9][\w.-]*$/.test(name);
}

/** True for any value implementing version `v1` of the connector contract. */
export function isV1Connector(value: unknown): value is Connector {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Connector>;
  return (
    candidate.specificationVersion === 'v1' &&
    typeof candidate.id === 'string' &&
    Array.isArray(candidate.tools) &&
    typeof candidate.verify === 'function'
  );
}

/** Directories `base`, its parents, up to the root: where Node would look for node_modules. */
function ancestors(base: string): string[] {
  const list: string[] = [];
  let current = resolve(base);
  for (;;) {
    list.push(current);
    const parent = dirname(current);
    if (parent === current) return list;
    current = parent;
  }
}

/** The ESM entry file of a package directory, from its `exports` (import/default) or `main`. */
function packageEntry(packageDirectory: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {
    exports?: unknown;
    main?: string;
    module?: string;
  };
  const pick = (target: unknown): string | undefined => {
    if (typeof target === 'string') return target;
    if (Array.isArray(target)) return target.map(pick).find(Boolean);
    if (target && typeof target === 'object') {
      const conditions = target as Record<string, unknown>;
      // The built CLI runs plain JavaScript, so the `@patchbay/source` condition is skipped.
      for (const key of ['node', 'import', 'default']) {
        const found = pick(conditions[key]);
        if (found) return found;
      }
    }
    return undefined;
  };
  const exportsField = manifest.exports;
  const root =
    exportsField && typeof exportsField === 'object' && !Array.isArray(exportsField) && '.' in exportsField
      ? (exportsField as Record<string, unknown>)['.']
      : exportsField;
  const entry = pick(root) ?? manifest.module ?? manifest.main ?? 'index.js';
  return join(packageDirectory, entry);
}

/** Finds `<dir>/node_modules/<name>` walking up from `base`. */
function findPackageDirectory(name: string, base: string): string | undefined {
  for (const directory of ancestors(base)) {
    const candidate = join(directory, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

/** Connector packages (by {@link isConnectorPackageName}) visible from each base directory, closest first, by name. */
function installedConnectorPackages(bases: string[]): Map<string, string> {
  const found = new Map<string, string>();
  const entries = (directory: string): string[] => {
    try {
      return readdirSync(directory);
    } catch {
      return [];
    }
  };
  for (const base of bases) {
    for (const directory of ancestors(base)) {
      const modules = join(directory, 'node_modules');
      for (const entry of entries(modules)) {
        // Scoped names are one level deeper: node_modules/@scope/name.
        const names = entry.startsWith('@')
          ? entries(join(modules, entry)).map((name) => `${entry}/${name}`)
          : [entry];
        for (const name of names) {
          if (isConnectorPackageName(name) && !found.has(name)) found.set(name, join(modules, name));
        }
      }
    }
  }
  return found;
}

/** Calls a declared factory; a throw or a value that is not a `v1` connector becomes a warning. */
function create(
  factory: (settings?: Record<string, unknown>) => unknown,
  settings: Record<string, unknown> | undefined,
  origin: string,
  warnings: string[],
): Connector | undefined {
  let created: unknown;
  try {
    created = factory(settings);
  } catch (error) {
    warnings.push(`${origin}: ${connectorDeclaration}() failed: ${(error as Error).message}`);
    return undefined;
  }
  if (isV1Connector(created)) return withSettingsOrigin(created, settings);
  warnings.push(`${origin}: ${connectorDeclaration}() did not return a v1 connector`);
  return undefined;
}

/**
 * A connector that declares no `origin` but is configured with a `baseUrl` gets that URL's origin,
 * so the credentials stored for it are bound there like any declared origin: after a change of
 * `baseUrl` it shows `invalid_credentials`, saying it is now configured for the new origin and to
 * connect again, and its stored token is not sent there. Without the origin Patchbay could not tell
 * the change and the token would follow the setting without a word.
 */
export function withSettingsOrigin(
  connector: Connector,
  settings: Record<string, unknown> | undefined,
): Connector {
  const baseUrl = settings?.baseUrl;
  if (connector.origin !== undefined || typeof baseUrl !== 'string') return connector;
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return connector;
  }
  if (origin === 'null') return connector;
  return Object.freeze({ ...connector, origin });
}

/**
 * The module's default instance (`export const acme = createAcme()`), when it exports exactly one
 * `v1` connector: what its factory returns without settings, already built when the module loaded.
 * Reading it runs no code; building a second one costs every connector's start-up again (its tools
 * and schemas), which `patchbay mcp` and `patchbay connectors` pay before their first answer.
 */
function defaultInstance(moduleExports: Record<string, unknown>): Connector | undefined {
  const instances = Object.values(moduleExports).filter(isV1Connector);
  return instances.length === 1 ? instances[0] : undefined;
}

/**
 * The connector a module declares through its `connectorFactory` export, or `undefined` with a
 * warning. Settings come from the config entry when it has some; otherwise the module's default
 * instance (or, without one, the factory called without settings) tells the connector's id, and the
 * factory is called with that id's settings when the config has them, so the configured instance
 * replaces the default one.
 */
function declaredConnector(
  moduleExports: Record<string, unknown>,
  entrySettings: Record<string, unknown> | undefined,
  settingsById: PatchbayConfig['settings'],
  origin: string,
  warnings: string[],
): Connector | undefined {
  const factory = moduleExports[connectorDeclaration];
  if (typeof factory !== 'function') {
    warnings.push(
      `${origin}: declares no connector (it must export ${connectorDeclaration}, its create function; see "Discovery" in the guide to adding a connector)`,
    );
    return undefined;
  }
  const call = factory as (settings?: Record<string, unknown>) => unknown;
  if (entrySettings !== undefined) return create(call, entrySettings, origin, warnings);
  const unconfigured = defaultInstance(moduleExports) ?? create(call, undefined, origin, warnings);
  const settings = unconfigured && settingsById[unconfigured.id];
  return settings === undefined ? unconfigured : create(call, settings, origin, warnings);
}

/** Options of {@link discoverConnectors}. */
export interface DiscoverOptions {
  config: PatchbayConfig;
  /** Directories whose node_modules are searched (the cwd and the CLI's own). */
  searchFrom: string[];
}

/**
 * Finds every connector: installed connector packages (by {@link isConnectorPackageName}, from each
 * `searchFrom` directory) and the packages or modules listed in `patchbay.config.json`, each through
 * its `connectorFactory` declaration. Config entries win over packages with the same id. A broken
 * module or one without a declaration is a warning, not a failure, so one bad plugin cannot lock
 * the operator out of the others — except a module named in the config that cannot be found.
 */
export async function discoverConnectors(options: DiscoverOptions): Promise<Discovery> {
  const { config } = options;
  const warnings: string[] = [];
  const byId = new Map<string, DiscoveredConnector>();

  const load = async (file: string, origin: string): Promise<Record<string, unknown> | undefined> => {
    try {
      return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      warnings.push(`${origin}: cannot be loaded: ${(error as Error).message}`);
      return undefined;
    }
  };

  const packages = installedConnectorPackages(options.searchFrom);
  const loadedPackages = await Promise.all(
    [...packages].map(async ([packageName, directory]) => ({
      packageName,
      moduleExports: await load(packageEntry(directory), packageName),
    })),
  );
  for (const { packageName, moduleExports } of loadedPackages) {
    if (!moduleExports) continue;
    const connector = declaredConnector(moduleExports, undefined, config.settings, packageName, warnings);
    if (connector) byId.set(connector.id, { connector, origin: packageName });
  }

  const configured = await Promise.all(
    config.connectors.map(async (entry) => {
      const isPath = entry.module.startsWith('.') || isAbsolute(entry.module);
      let file: string | undefined;
      if (isPath) file = resolve(config.directory, entry.module);
      else {
        const directory = [config.directory, ...options.searchFrom]
          .map((base) => findPackageDirectory(entry.module, base))
          .find(Boolean);
        file = directory ? packageEntry(directory) : undefined;
      }
      if (!file || !existsSync(file)) {
        throw new CliError(
          'connector_module_missing',
          `The connector module "${entry.module}" listed in ${config.path ?? 'the config'} was not found.`,
        );
      }
      return { entry, moduleExports: await load(file, entry.module) };
    }),
  );
  for (const { entry, moduleExports } of configured) {
    if (!moduleExports) continue;
    const connector = declaredConnector(
      moduleExports,
      entry.settings,
      config.settings,
      entry.module,
      warnings,
    );
    if (connector) byId.set(connector.id, { connector, origin: entry.module });
  }

  const connectors = [...byId.values()].sort((a, b) => (a.connector.id < b.connector.id ? -1 : 1));
  return { connectors, warnings };
}

/** The directory of the CLI package, whose own node_modules are searched too. */
export function cliPackageDirectory(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..');
}
