// The one file layout every connector package follows (contributing/add-a-connector.md, "Anatomy").
// Static checks only: they read file names and text, so the rules can also be run on a copy that a
// test breaks on purpose.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** `github` → `Github`: the name part of `createGithub`, `GithubSettings` (STYLE.md: from the id). */
export function pascalOf(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

/** Files at a package's root; anything else there (besides what git ignores) is a problem. */
const rootFiles = new Set([
  'package.json',
  'README.md',
  'CHANGELOG.md',
  'tsconfig.json',
  'tsup.config.ts',
  'vitest.config.ts',
  'src',
]);
// Build, test and install output that .gitignore keeps out of the repository.
const ignoredAtRoot = new Set(['node_modules', 'dist', '.turbo', 'coverage', '.vitest-result.json']);

/** Source files a connector has to have, relative to `src/`. */
export function requiredFiles(id: string): string[] {
  return [
    'index.ts',
    `${id}-connector.ts`,
    `${id}-client.ts`,
    `${id}-connector.test.ts`,
    `${id}-verify.test.ts`,
    'tools/index.ts',
    `fixtures/${id}-responses.ts`,
  ];
}

/** Every file under `dir`, relative to it, with `/` separators. */
function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? listFiles(path, `${prefix}${entry}/`) : [`${prefix}${entry}`];
  });
}

const kebab = '[a-z0-9]+(?:-[a-z0-9]+)*';

/** The names a statement `export { a, type B } from '…'` exports (types with their `type` marker dropped). */
function exportedNames(statement: string): string[] {
  const list = /^export\s*\{([^}]*)\}/.exec(statement)?.[1] ?? '';
  return list
    .split(',')
    .map((name) => name.trim().replace(/^type\s+/, ''))
    .filter(Boolean);
}

/**
 * What is wrong with the connector package in `dir` (folder name `id`), one sentence per problem;
 * empty when it follows the anatomy.
 */
export function anatomyProblems(dir: string, id: string): string[] {
  const problems: string[] = [];
  const Name = pascalOf(id);
  const src = join(dir, 'src');
  const read = (file: string) => readFileSync(join(src, file), 'utf8');

  for (const entry of readdirSync(dir)) {
    if (!rootFiles.has(entry) && !ignoredAtRoot.has(entry) && !entry.endsWith('.log')) {
      problems.push(
        `${entry}: not part of a connector package (allowed at the root: ${[...rootFiles].join(', ')})`,
      );
    }
  }
  if (!existsSync(src)) return [...problems, 'src/: missing'];

  const files = listFiles(src);
  const has = (file: string) => files.includes(file);
  for (const file of requiredFiles(id)) if (!has(file)) problems.push(`src/${file}: missing`);

  const allowed = [
    /^index\.ts$/,
    new RegExp(`^${id}-${kebab}(?:\\.test)?\\.ts$`),
    /^tools\/index\.ts$/,
    new RegExp(`^tools\\/${kebab}(?:\\.test)?\\.ts$`),
    new RegExp(`^fixtures\\/(?:${id}-responses|call-${id}-tool)\\.ts$`),
  ];
  for (const file of files) {
    if (!allowed.some((pattern) => pattern.test(file))) {
      problems.push(
        `src/${file}: not an anatomy name (index.ts, ${id}-<topic>.ts, tools/<tool>.ts, fixtures/${id}-responses.ts, fixtures/call-${id}-tool.ts, and <name>.test.ts beside <name>.ts)`,
      );
      continue;
    }
    // A test sits beside what it tests; verify lives in the connector file but has its own test, and
    // `<id>-wire.test.ts` checks every request against the service's own published description
    // (OpenAPI document, type package or SDK), which is not a file of the package.
    if (
      file.endsWith('.test.ts') &&
      file !== `${id}-verify.test.ts` &&
      file !== `${id}-wire.test.ts` &&
      !has(file.replace(/\.test\.ts$/, '.ts'))
    ) {
      problems.push(`src/${file}: tests nothing (no ${file.replace(/\.test\.ts$/, '.ts')} beside it)`);
    }
  }

  if (has(`${id}-errors.ts`) && !has(`${id}-errors.test.ts`)) {
    problems.push(`src/${id}-errors.ts: has no ${id}-errors.test.ts`);
  }

  const toolFiles = files.filter(
    (file) => file.startsWith('tools/') && file !== 'tools/index.ts' && !file.endsWith('.test.ts'),
  );
  for (const file of toolFiles) {
    const stem = file.slice('tools/'.length, -'.ts'.length);
    const toolName = `${id}_${stem.replaceAll('-', '_')}`;
    const text = read(file);
    const definitions = text.match(/\bdefineTool\(/g)?.length ?? 0;
    if (definitions !== 1 || !text.includes(`name: '${toolName}'`)) {
      problems.push(`src/${file}: must define exactly one tool, named ${toolName} after the file`);
    }
    if (!has(`tools/${stem}.test.ts`)) problems.push(`src/${file}: has no tools/${stem}.test.ts`);
  }

  if (has('index.ts')) {
    const statements = read('index.ts')
      .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
      .split(';')
      .map((statement) => statement.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    const wanted = ['connectorFactory', `create${Name}`, `${Name}Settings`, id].sort();
    const names: string[] = [];
    for (const statement of statements) {
      if (!/^export \{[^}]*\} from '\.\/[\w-]+\.js'$/.test(statement)) {
        problems.push(`src/index.ts: only named re-exports are allowed, found "${statement.slice(0, 60)}"`);
      } else {
        names.push(...exportedNames(statement));
      }
    }
    if ([...names].sort().join() !== wanted.join()) {
      problems.push(
        `src/index.ts: exports ${names.join(', ') || 'nothing'}; it must export exactly ${wanted.join(', ')}`,
      );
    }
  }

  if (has(`${id}-connector.ts`)) {
    const text = read(`${id}-connector.ts`);
    if (
      !new RegExp(`export const connectorFactory: ConnectorFactory<${Name}Settings> = create${Name};`).test(
        text,
      )
    ) {
      problems.push(
        `src/${id}-connector.ts: must declare the connector: export const connectorFactory: ConnectorFactory<${Name}Settings> = create${Name};`,
      );
    }
  }
  if (
    has(`${id}-connector.test.ts`) &&
    !read(`${id}-connector.test.ts`).includes('describeConnectorConformance(')
  ) {
    problems.push(`src/${id}-connector.test.ts: must run describeConnectorConformance`);
  }
  if (has(`${id}-client.ts`)) {
    const text = read(`${id}-client.ts`);
    if (!new RegExp(`export function create${Name}Client\\(`).test(text)) {
      problems.push(`src/${id}-client.ts: must export create${Name}Client`);
    }
    // Translating errors around each request is what the shared client's mapError hook is for.
    if (/\bcatch\s*\(/.test(text)) {
      problems.push(`src/${id}-client.ts: catches errors; pass the service's mapping as mapError instead`);
    }
  }
  return problems;
}
