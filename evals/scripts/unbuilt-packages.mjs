// Which workspace packages a script here would load from dist/ that is not there. `pnpm eval` runs
// the built packages (promptfoo loads the provider in a process of its own, outside vitest's source
// resolution), so before `pnpm build` its first import failed with a 20-line ERR_MODULE_NOT_FOUND
// stack that never said to build.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/** The file Node loads for a package's main entry: `exports["."]`'s import/default, else `main`. */
function entryOf(manifest) {
  const root = typeof manifest.exports === 'object' ? manifest.exports['.'] : manifest.exports;
  const entry = typeof root === 'string' ? root : (root?.import ?? root?.default);
  return typeof entry === 'string' ? entry : manifest.main;
}

/**
 * The names of the workspace packages (`workspace:` dependencies, followed through their own) that
 * `directory`'s package depends on at run time and whose main entry file does not exist, sorted.
 */
export function unbuiltPackages(directory) {
  const missing = new Set();
  const seen = new Set();
  const visit = (packageDirectory) => {
    const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
    for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
      if (!String(version).startsWith('workspace:') || seen.has(name)) continue;
      seen.add(name);
      const linked = join(packageDirectory, 'node_modules', name);
      if (!existsSync(linked)) {
        missing.add(name);
        continue;
      }
      const dependency = realpathSync(linked);
      const entry = entryOf(JSON.parse(readFileSync(join(dependency, 'package.json'), 'utf8')));
      if (entry !== undefined && !existsSync(join(dependency, entry))) missing.add(name);
      visit(dependency);
    }
  };
  visit(directory);
  return [...missing].sort();
}

/** What to tell a person whose packages are not built: which ones, and the command to run. */
export function buildFirstMessage(command, unbuilt) {
  const shown =
    unbuilt.length > 4
      ? `${unbuilt.slice(0, 4).join(', ')} and ${unbuilt.length - 4} more`
      : unbuilt.join(', ');
  return `${command} runs the built packages, and ${unbuilt.length === 1 ? 'one is' : `${unbuilt.length} are`} not built (${shown}). Run \`pnpm build\` first, then \`${command}\` again.`;
}
