import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Repository root. */
export const root = join(import.meta.dirname, '../..');

/** A package directory with its parsed manifest. */
export interface PackageDir {
  dir: string;
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: package.json is free-form; tests read fields by name
  manifest: Record<string, any>;
}

/** Lists the package directories directly under `parent` (e.g. `packages`, `connectors`). */
export function packagesUnder(parent: string): PackageDir[] {
  const base = join(root, parent);
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, 'package.json')))
    .map((entry) => {
      const dir = join(base, entry.name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return { dir, name: entry.name, manifest };
    });
}

/** Every file under `dir` (skipping node_modules and dist) whose path matches `pattern`. */
export function filesUnder(dir: string, pattern: RegExp): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (pattern.test(path)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** Text of every changeset file. */
export function changesetTexts(): string[] {
  const dir = join(root, '.changeset');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .map((file) => readFileSync(join(dir, file), 'utf8'));
}

/**
 * npm's machine-wide network settings (CA bundle, registry mirror, proxy) as `pnpm_config_*`
 * variables. pnpm never reads npm's global config, so a `pnpm install` a test starts in a project
 * outside the workspace fails with SELF_SIGNED_CERT_IN_CHAIN behind a TLS-inspecting proxy unless it
 * is handed them, as scripts/setup.sh does for its own installs. Variables already set win.
 */
export function npmNetworkEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const found: Record<string, string> = {};
  const result = spawnSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8', env });
  const file = env.npm_config_globalconfig || result.stdout?.trim();
  if (!file || !existsSync(file)) return found;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*([\w-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (!networkKeys.has(key)) continue;
    const variable = `pnpm_config_${key.replaceAll('-', '_')}`;
    if (env[variable] === undefined) found[variable] = value.replace(/^"(.*)"$/, '$1');
  }
  return found;
}

const networkKeys = new Set([
  'registry',
  'cafile',
  'ca',
  'strict-ssl',
  'proxy',
  'https-proxy',
  'noproxy',
  'no-proxy',
]);

/**
 * The source files a package's entry points (the `@patchbay/source` targets of its `exports`) reach
 * through relative imports, static or dynamic: what the package ships.
 */
export function shippedSources(pkg: PackageDir): string[] {
  const entries = Object.values(pkg.manifest.exports ?? {})
    .map((target) => (target as Record<string, string>)['@patchbay/source'])
    .filter((source): source is string => typeof source === 'string');
  const seen = new Set<string>();
  const pending = entries.map((entry) => join(pkg.dir, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\(\s*)'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]!).replace(/\.js$/, '.ts');
      for (const candidate of [target, target.replace(/\.ts$/, '.tsx')]) {
        if (existsSync(candidate)) pending.push(candidate);
      }
    }
  }
  return [...seen];
}
