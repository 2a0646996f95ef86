import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
