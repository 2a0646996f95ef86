#!/usr/bin/env node
// `pnpm new:connector <id> [--name "Display Name"] [--dir connectors] [--standalone [--package NAME]]`
// Copies templates/connector into <dir>/<id> with the names filled in. The result follows the
// connector anatomy (contributing/add-a-connector.md), builds and passes its tests and the
// conformance suite as generated; the TODO(connector author) markers show what to fill in.
// `--standalone` makes a package for its own repository: no `../../` configs, no workspace ranges.
// In a workspace it also writes the package's changeset (every public package needs one to be
// released, and tests/src/package-shape.test.ts fails without it).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const usage = `usage: pnpm new:connector <id> [--name "Display Name"] [--dir <directory>] [--standalone [--package <name>]]

Creates <directory>/<id> (default: connectors/<id>), the package @patchbay/connector-<id>, from
templates/connector: client with a mapError hook, two example tools with their tests, fixtures,
the conformance suite, and the connectorFactory declaration the CLI discovers it by. In the
workspace it also writes .changeset/connector-<id>.md (the nearest .changeset directory at or
above <directory>) for its first release.

  <id>          lowercase letters and digits; prefixes every tool name (<id>_get_item)
  --name        the service's display name (default: the id, capitalised)
  --dir         the parent directory (default: connectors)
  --standalone  a package for its own repository, outside this workspace: its own tsconfig and
                vitest config, published version ranges of @patchbay/*, its build and test tools
                as devDependencies (use with --dir <where your repositories live>)
  --package     the package name with --standalone (default: patchbay-connector-<id>, a name the
                CLI discovers)
  -h, --help    show this help

See contributing/add-a-connector.md for what to fill in next.`;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      dir: { type: 'string', default: join(root, 'connectors') },
      standalone: { type: 'boolean', default: false },
      package: { type: 'string' },
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
if (values.package !== undefined && !values.standalone) {
  console.error(
    `new:connector: --package needs --standalone (workspace connectors are @patchbay/connector-<id>).\n\n${usage}`,
  );
  process.exit(2);
}
const packageName = values.standalone
  ? (values.package ?? `patchbay-connector-${id}`)
  : `@patchbay/connector-${id}`;
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
    .replaceAll('@patchbay/connector-__ID__', packageName)
    .replaceAll('__ENV__', id.toUpperCase())
    .replaceAll('__NAME__', displayName)
    .replaceAll('__Name__', pascal)
    .replaceAll('__ID__', id)
    .replaceAll('__id__', id);

const changeset = values.standalone ? undefined : changesetFile();
if (changeset && existsSync(changeset)) {
  console.error(`new:connector: ${relative(process.cwd(), changeset)} already exists`);
  process.exit(1);
}

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
if (values.standalone) makeStandalone();
if (changeset) writeChangeset(changeset);
console.log(`created ${relative(process.cwd(), target)} (${packageName}):`);
for (const file of created.sort()) console.log(`  ${file}`);
if (changeset) console.log(`and its changeset ${relative(process.cwd(), changeset)}`);
console.log(
  values.standalone
    ? `next: cd ${relative(process.cwd(), target) || '.'}, pnpm install (or npm install), fill in the TODO(connector author) markers, then pnpm test`
    : `next: pnpm install, fill in the TODO(connector author) markers, then pnpm --filter ${packageName} test`,
);

/**
 * Rewrites the workspace-only parts of the generated package: `workspace:^` ranges become the
 * published ranges of this checkout's packages, the shared configs (`../../tsconfig.base.json`,
 * `../../vitest.shared.ts`) are written out in full, the source-resolution export condition goes,
 * and the tools the workspace provides (TypeScript, vitest, tsup, Node's types) become devDependencies.
 */
function makeStandalone() {
  const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
  const rootManifest = readJson(join(root, 'package.json'));
  const versionOf = (name) =>
    readJson(join(root, 'packages', name.replace('@patchbay/', ''), 'package.json')).version;
  const manifestPath = join(target, 'package.json');
  const manifest = readJson(manifestPath);
  for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:')) manifest[field][name] = `^${versionOf(name)}`;
    }
  }
  for (const tool of ['@types/node', 'tsup', 'typescript', 'vitest']) {
    manifest.devDependencies[tool] = rootManifest.devDependencies[tool];
  }
  manifest.devDependencies = Object.fromEntries(Object.entries(manifest.devDependencies).sort());
  delete manifest.exports['.']['@patchbay/source'];
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

  const { compilerOptions } = readJson(join(root, 'tsconfig.base.json'));
  delete compilerOptions.customConditions;
  writeFileSync(
    join(target, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions, include: ['src', '*.config.ts'] }, null, 2)}\n`,
  );
  writeFileSync(
    join(target, 'vitest.config.ts'),
    [
      "import { defineConfig } from 'vitest/config';",
      '',
      'export default defineConfig({',
      "  test: { include: ['src/**/*.test.ts'] },",
      '});',
      '',
    ].join('\n'),
  );
}

/**
 * Where the new package's changeset goes: `connector-<id>.md` (the name contributing/add-a-connector.md
 * gives) in the nearest `.changeset` directory at or above the parent directory, which is the
 * workspace's own for `connectors/`. Undefined when there is none (nothing to release with).
 */
function changesetFile() {
  for (let directory = resolve(values.dir); ; directory = dirname(directory)) {
    if (existsSync(join(directory, '.changeset'))) return join(directory, '.changeset', `connector-${id}.md`);
    if (dirname(directory) === directory) return undefined;
  }
}

/** Writes the first-release changeset: a minor release, as every connector's first one. */
function writeChangeset(file) {
  writeFileSync(
    file,
    [
      '---',
      `"${packageName}": minor`,
      '---',
      '',
      `New ${displayName} connector: \`create${pascal}(settings)\` and the default \`${id}\` instance. TODO(connector author): say what it connects to, its tools and their scopes.`,
      '',
    ].join('\n'),
  );
}
