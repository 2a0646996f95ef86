// Lists workspace packages (the globs of pnpm-workspace.yaml) without a YAML dependency.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Returns `{ dir, manifest }` for every package matched by pnpm-workspace.yaml. */
export function workspacePackages(root) {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const section = yaml.split(/^packages:\s*$/m)[1]?.split(/^\S/m)[0] ?? '';
  const globs = [...section.matchAll(/^\s*-\s+['"]?([^'"\s]+)['"]?\s*$/gm)].map((match) => match[1]);
  const dirs = [];
  for (const glob of globs) {
    if (glob.endsWith('/*')) {
      const parent = join(root, glob.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) dirs.push(join(parent, entry.name));
      }
    } else {
      dirs.push(join(root, glob));
    }
  }
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}
