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

const packagePrefix = 'connector-';

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

/** `@patchbay/connector-*` packages visible from each base directory, closest first, by name. */
function installedConnectorPackages(bases: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const base of bases) {
    for (const directory of ancestors(base)) {
      const scope = join(directory, 'node_modules', '@patchbay');
      let names: string[];
      try {
        names = readdirSync(scope);
      } catch {
        continue;
      }
      for (const name of names) {
        const packageName = `@patchbay/${name}`;
        if (name.startsWith(packagePrefix) && !found.has(packageName))
          found.set(packageName, join(scope, name));
      }
    }
  }
  return found;
}

/**
 * Turns a module's exports into connectors. With settings, a `create*` factory is called with them
 * (the configured instance replaces the default one); otherwise every exported `v1` connector is
 * taken, and a module exporting only a factory is asked for a default instance.
 */
function connectorsOf(
  moduleExports: Record<string, unknown>,
  settingsFor: (id: string | undefined) => Record<string, unknown> | undefined,
  origin: string,
  warnings: string[],
): Connector[] {
  const instances = new Map<string, Connector>();
  for (const value of Object.values(moduleExports)) {
    if (isV1Connector(value)) instances.set(value.id, value);
  }
  const factories = Object.entries(moduleExports).filter(
    ([name, value]) => /^create[A-Z0-9]/.test(name) && typeof value === 'function',
  ) as [string, (settings?: Record<string, unknown>) => unknown][];
  const callFactory = (settings: Record<string, unknown> | undefined) => {
    for (const [name, factory] of factories) {
      try {
        const created = factory(settings);
        if (isV1Connector(created)) return created;
      } catch (error) {
        warnings.push(`${origin}: ${name}() failed: ${(error as Error).message}`);
      }
    }
    return undefined;
  };
  if (factories.length > 0) {
    const ids = instances.size > 0 ? [...instances.keys()] : [undefined];
    for (const id of ids) {
      const settings = settingsFor(id);
      if (settings === undefined && id !== undefined) continue;
      const created = callFactory(settings);
      if (created) instances.set(created.id, created);
    }
  }
  return [...instances.values()];
}

/** Options of {@link discoverConnectors}. */
export interface DiscoverOptions {
  config: PatchbayConfig;
  /** Directories whose node_modules are searched (the cwd and the CLI's own). */
  searchFrom: string[];
}

/**
 * Finds every connector: installed `@patchbay/connector-*` packages (from each `searchFrom`
 * directory) and modules listed in `patchbay.config.json`. Config entries win over packages with
 * the same id. A broken module is a warning, not a failure, so one bad plugin cannot lock the
 * operator out of the others — except a module named in the config that cannot be found.
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
    const guessedId = packageName.slice(`@patchbay/${packagePrefix}`.length);
    const found = connectorsOf(
      moduleExports,
      (id) => config.settings[id ?? guessedId],
      packageName,
      warnings,
    );
    if (found.length === 0) warnings.push(`${packageName}: exports no v1 connector`);
    for (const connector of found) byId.set(connector.id, { connector, origin: packageName });
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
    const found = connectorsOf(
      moduleExports,
      (id) => entry.settings ?? (id ? config.settings[id] : undefined),
      entry.module,
      warnings,
    );
    if (found.length === 0) warnings.push(`${entry.module}: exports no v1 connector`);
    for (const connector of found) byId.set(connector.id, { connector, origin: entry.module });
  }

  const connectors = [...byId.values()].sort((a, b) => (a.connector.id < b.connector.id ? -1 : 1));
  return { connectors, warnings };
}

/** The directory of the CLI package, whose own node_modules are searched too. */
export function cliPackageDirectory(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..');
}
