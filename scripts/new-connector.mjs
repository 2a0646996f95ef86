#!/usr/bin/env node
// `pnpm new:connector <id> [--name "Display Name"] [--dir connectors]`
// Copies templates/connector into <dir>/<id> with the names filled in. The result builds and passes
// the conformance suite as generated; the TODO(connector author) markers show what to fill in.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { name: { type: 'string' }, dir: { type: 'string', default: join(root, 'connectors') } },
});
const id = positionals[0];
if (!id || !/^[a-z][a-z0-9]*$/.test(id)) {
  console.error('usage: pnpm new:connector <id> [--name "Display Name"]  (id: lowercase letters and digits)');
  process.exit(2);
}
const displayName = values.name ?? id.charAt(0).toUpperCase() + id.slice(1);
// Factory names come from the id, as STYLE.md asks (`createGithub`, not `createGitHub`).
const pascal = id.charAt(0).toUpperCase() + id.slice(1);
const target = join(values.dir, id);
if (existsSync(target)) {
  console.error(`new:connector: ${relative(process.cwd(), target)} already exists`);
  process.exit(1);
}
const fill = (text) =>
  text
    .replaceAll('__ENV__', id.toUpperCase())
    .replaceAll('__NAME__', displayName)
    .replaceAll('__Name__', pascal)
    .replaceAll('__ID__', id)
    .replaceAll('__id__', id);

const template = join(root, 'templates/connector');
const copy = (from) => {
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    const destination = join(target, fill(relative(template, source)));
    if (statSync(source).isDirectory()) {
      copy(source);
      continue;
    }
    mkdirSync(dirname(destination), { recursive: true });
    writeFileSync(destination, fill(readFileSync(source, 'utf8')));
  }
};
copy(template);
console.log(`created ${relative(process.cwd(), target)} (@patchbay/connector-${id})`);
console.log(
  'next: pnpm install, then fill in the TODO(connector author) markers and run pnpm --filter @patchbay/connector-' +
    id +
    ' test',
);
