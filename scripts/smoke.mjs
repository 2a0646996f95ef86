#!/usr/bin/env node
// Smoke run of what exists until `pnpm eval` lands: every public package's built entry point loads
// and exports something. Fails loudly when a package did not build.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workspacePackages } from './workspace.mjs';

const root = new URL('..', import.meta.url).pathname;
let loaded = 0;
for (const { dir, manifest } of workspacePackages(root)) {
  const entry = manifest.exports?.['.']?.import;
  if (manifest.private || !entry) continue;
  const module = await import(pathToFileURL(join(dir, entry)).href);
  const count = Object.keys(module).length;
  if (count === 0) throw new Error(`${manifest.name}: built entry exports nothing`);
  console.log(`[smoke] ${manifest.name}: ${count} exports`);
  loaded += 1;
}
console.log(`[smoke] ${loaded} packages load from dist`);
