#!/usr/bin/env node
// `pnpm new:connector <id> [--name "Display Name"] [--dir connectors]`
// Copies templates/connector into <dir>/<id> with the names filled in. The result follows the
// connector anatomy (contributing/add-a-connector.md), builds and passes its tests and the
// conformance suite as generated; the TODO(connector author) markers show what to fill in.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const usage = `usage: pnpm new:connector <id> [--name "Display Name"] [--dir <directory>]

Creates <directory>/<id> (default: connectors/<id>), the package @patchbay/connector-<id>, from
templates/connector: client with a mapError hook, two example tools with their tests, fixtures,
the conformance suite, and the connectorFactory declaration the CLI discovers it by.

  <id>          lowercase letters and digits; prefixes every tool name (<id>_get_item)
  --name        the service's display name (default: the id, capitalised)
  --dir         the parent directory (default: connectors)
  -h, --help    show this help

See contributing/add-a-connector.md for what to fill in next.`;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      dir: { type: 'string', default: join(root, 'connectors') },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  // parseArgs' own message, without the stack: an unknown flag is a usage error.
  console.error(`new:connector: ${error.message.split('. ')[0]}.\n\n${usage}`);
  process.exit(2);
}
const { positionals, values } = parsed;
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const id = positionals[0];
if (!id || !/^[a-z][a-z0-9]*$/.test(id) || positionals.length > 1) {
  console.error(usage);
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
const created = [];
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
    created.push(relative(target, destination));
  }
};
copy(template);
console.log(`created ${relative(process.cwd(), target)} (@patchbay/connector-${id}):`);
for (const file of created.sort()) console.log(`  ${file}`);
console.log(
  `next: pnpm install, fill in the TODO(connector author) markers, then pnpm --filter @patchbay/connector-${id} test`,
);
