#!/usr/bin/env node
// Smoke run of what exists until `pnpm eval` lands: loads every built package and defines a
// connector end to end through the public entry points.
import { workspacePackages } from './workspace.mjs';

const root = new URL('..', import.meta.url).pathname;
let loaded = 0;
for (const { manifest } of workspacePackages(root)) {
  if (manifest.private || !manifest.exports) continue;
  const module = await import(manifest.name);
  console.log(`[smoke] ${manifest.name}: ${Object.keys(module).length} exports`);
  loaded += 1;
}
console.log(`[smoke] ${loaded} packages load from dist`);
