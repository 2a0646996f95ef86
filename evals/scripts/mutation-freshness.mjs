#!/usr/bin/env node
// Whether a committed mutation score still describes the code: a Stryker JSON report keeps the source
// of every file it mutated, so a file whose text changed since is named here as stale (its score is of
// a file that no longer exists). `measured.json` beside the report says which commit it was measured
// on. Exits 1 when a scored file changed, 0 when every one is as measured.
//   node evals/scripts/mutation-freshness.mjs [evals/mutation/<run> ...]   (default: the score the README quotes)
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * The scored files of one run directory whose current text differs from the text Stryker mutated,
 * and the commit the run names. `read` reads a repository file (undefined when it is gone).
 */
export function staleFiles(
  directory,
  read = (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined),
) {
  const report = JSON.parse(readFileSync(join(directory, 'mutation.json'), 'utf8'));
  const measuredFile = join(directory, 'measured.json');
  const measured = existsSync(measuredFile) ? JSON.parse(readFileSync(measuredFile, 'utf8')) : {};
  const stale = Object.entries(report.files)
    .filter(([path, file]) => read(path) !== file.source)
    .map(([path]) => path);
  return { commit: measured.commit, files: Object.keys(report.files), stale };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const directories = process.argv.slice(2);
  const runs = directories.length > 0 ? directories : [join(root, 'evals/mutation/eval-wide')];
  let stale = 0;
  for (const directory of runs) {
    const result = staleFiles(directory);
    stale += result.stale.length;
    const where = result.commit ? `measured on ${result.commit}` : 'no commit recorded';
    console.log(
      result.stale.length === 0
        ? `${directory}: all ${result.files.length} scored files as measured (${where})`
        : `${directory}: ${result.stale.length} of ${result.files.length} scored files changed since the score (${where}): ${result.stale.join(', ')}`,
    );
  }
  process.exit(stale === 0 ? 0 : 1);
}
