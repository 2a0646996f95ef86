// docs/architecture.md's package drawing and dependency table against the workspace: every package
// drawn and listed, every arrow and listed dependency one its package.json declares and its shipped
// code imports, every declared one drawn (or reachable along required arrows) and listed, every
// command drawn a real `patchbay` command. The page once drew `status` and `approvals` commands that
// never existed, a CLI → turn edge and a gate → SACP bracket that do not exist, and left packages out.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PackageDir, packagesUnder, root, shippedSources } from './workspace.js';

/** How a package depends on another: the `package.json` field, and whether the peer is optional. */
type DependencyKind = 'dependency' | 'peer' | 'optional peer';

const document = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const section = document.split('## Packages and the direction of dependencies')[1]?.split('\n## ')[0] ?? '';
const drawing = section.split('```mermaid')[1]?.split('```')[0] ?? '';

const packages = packagesUnder('packages');
const connectorPackages = packagesUnder('connectors');
const workspaceNames = new Set(packages.map((pkg) => pkg.manifest.name as string));
/** The name the page gives the connector packages together. */
const connectorsGroup = 'connectors/*';

/** A package's dependencies on packages of packages/, by kind. */
function declaredDependencies(pkg: PackageDir): Map<string, DependencyKind> {
  const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {} } = pkg.manifest;
  const found = new Map<string, DependencyKind>();
  for (const name of Object.keys(dependencies)) if (workspaceNames.has(name)) found.set(name, 'dependency');
  for (const name of Object.keys(peerDependencies)) {
    if (!workspaceNames.has(name)) continue;
    found.set(name, peerDependenciesMeta[name]?.optional === true ? 'optional peer' : 'peer');
  }
  return found;
}

const sorted = (dependencies: Map<string, DependencyKind>) =>
  [...dependencies].sort(([a], [b]) => a.localeCompare(b));

/** Every node the page must show, with what it depends on: each package, and the connectors together. */
const real = new Map<string, Map<string, DependencyKind>>(
  packages.map((pkg) => [pkg.manifest.name as string, declaredDependencies(pkg)]),
);
if (connectorPackages[0]) real.set(connectorsGroup, declaredDependencies(connectorPackages[0]));

/** The workspace packages a package's shipped code imports (types included). */
function importedPackages(pkg: PackageDir): Set<string> {
  const imported = new Set<string>();
  for (const file of shippedSources(pkg)) {
    for (const match of readFileSync(file, 'utf8').matchAll(
      /(?:from\s+|import\(\s*)'(@patchbay\/[a-z-]+)/g,
    )) {
      if (workspaceNames.has(match[1]!)) imported.add(match[1]!);
    }
  }
  imported.delete(pkg.manifest.name);
  return imported;
}

/**
 * Declared dependencies the shipped code does not import, each with why it stays for now. The test
 * fails when one is imported again or dropped, so this list cannot go stale.
 */
const declaredNotImported: Record<string, string[]> = {
  // Listed in its package.json, never imported (its types come through @patchbay/turn): dropping it
  // needs an install, left to the maintainers (issue 35 item 8).
  '@patchbay/ai-sdk': ['@patchbay/envelope'],
};

/** The drawing's nodes (id → the package name its label starts with) and arrows. */
function parseDrawing(text: string): {
  nodes: Map<string, string>;
  arrows: { from: string; to: string; optional: boolean }[];
} {
  const nodes = new Map(
    [...text.matchAll(/^\s*([a-z_]+)\["([^"<]+)(?:<br\/>[^"]*)?"\]\s*$/gm)].map((match) => [
      match[1]!,
      match[2]!.trim(),
    ]),
  );
  const arrows = [...text.matchAll(/^\s*([a-z_]+)\s+(-->|-\.->)\s+([a-z_]+)\s*$/gm)].map((match) => ({
    from: nodes.get(match[1]!) ?? `unknown node ${match[1]}`,
    to: nodes.get(match[3]!) ?? `unknown node ${match[3]}`,
    optional: match[2] === '-.->',
  }));
  return { nodes, arrows };
}

/** The dependency table: package → its listed dependencies with their kind. */
function parseTable(text: string): Map<string, Map<string, DependencyKind>> {
  const rows = new Map<string, Map<string, DependencyKind>>();
  for (const match of text.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)) {
    const listed = new Map<string, DependencyKind>();
    for (const item of match[2]!.matchAll(/`(@patchbay\/[a-z-]+)`( \((peer|optional peer)\))?/g)) {
      listed.set(item[1]!, (item[3] as DependencyKind | undefined) ?? 'dependency');
    }
    rows.set(match[1]!, listed);
  }
  return rows;
}

/** What `from` reaches along required arrows. */
function reachable(arrows: ReturnType<typeof parseDrawing>['arrows'], from: string): Set<string> {
  const seen = new Set<string>();
  const pending = [from];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const arrow of arrows) {
      if (arrow.from !== current || arrow.optional || seen.has(arrow.to)) continue;
      seen.add(arrow.to);
      pending.push(arrow.to);
    }
  }
  return seen;
}

/** The names of `patchbay`'s commands, read from the command modules. */
function cliCommands(): string[] {
  const directory = join(root, 'packages', 'cli', 'src', 'commands');
  return readdirSync(directory)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) =>
      [...readFileSync(join(directory, file), 'utf8').matchAll(/^\s+name: '([a-z-]+)',$/gm)].map(
        (match) => match[1] ?? '',
      ),
    );
}

const { nodes, arrows } = parseDrawing(drawing);
const dependencyTable =
  section.split('| package | depends on (workspace packages) |\n')[1]?.split('\n\n')[0] ?? '';
const table = parseTable(dependencyTable);

describe('docs/architecture.md, the package drawing and the dependency table', () => {
  it('reads the drawing, the table and the workspace (the checks below would pass on empty ones)', () => {
    expect(nodes.size).toBeGreaterThan(10);
    expect(arrows.length).toBeGreaterThan(10);
    expect(table.size).toBeGreaterThan(10);
    expect(real.get('@patchbay/turn')?.get('@patchbay/orchestrator')).toBe('dependency');
  });

  it('draws every package and the connectors, and nothing else', () => {
    expect([...nodes.values()].sort()).toEqual([...real.keys()].sort());
  });

  it('draws only arrows the package.json files declare, dotted exactly for optional peers', () => {
    const wrong = arrows.filter(
      (arrow) =>
        !real.get(arrow.from)?.has(arrow.to) ||
        (real.get(arrow.from)?.get(arrow.to) === 'optional peer') !== arrow.optional,
    );
    expect(wrong).toEqual([]);
  });

  it('draws every declared dependency: an arrow, or a path of required arrows for a required one', () => {
    const missing: string[] = [];
    for (const [name, dependencies] of real) {
      const reached = reachable(arrows, name);
      for (const [dependency, kind] of dependencies) {
        const drawn =
          kind === 'optional peer'
            ? arrows.some((arrow) => arrow.from === name && arrow.to === dependency && arrow.optional)
            : reached.has(dependency);
        if (!drawn) missing.push(`${name} → ${dependency}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists every package with exactly its declared dependencies and their kind', () => {
    expect([...table.keys()].sort()).toEqual([...real.keys()].sort());
    for (const [name, dependencies] of real) {
      expect({ name, listed: sorted(table.get(name) ?? new Map()) }).toEqual({
        name,
        listed: sorted(dependencies),
      });
    }
  });

  it('every connector package depends on what the connectors row says', () => {
    expect(connectorPackages.length).toBeGreaterThan(0);
    for (const pkg of connectorPackages) {
      expect({ name: pkg.manifest.name, dependencies: sorted(declaredDependencies(pkg)) }).toEqual({
        name: pkg.manifest.name,
        dependencies: sorted(real.get(connectorsGroup)!),
      });
    }
  });

  it('every declared (so drawn and listed) dependency is imported by the shipped code', () => {
    for (const pkg of [...packages, ...connectorPackages]) {
      const imported = importedPackages(pkg);
      const notImported = [...declaredDependencies(pkg).keys()].filter((name) => !imported.has(name));
      expect({ name: pkg.manifest.name, notImported }).toEqual({
        name: pkg.manifest.name,
        notImported: declaredNotImported[pkg.manifest.name] ?? [],
      });
    }
  });

  it('names only commands patchbay has', () => {
    const named = /\(patchbay: ([^)]*)\)/.exec(drawing)?.[1];
    expect(named).toBeDefined();
    const commands = cliCommands();
    expect(commands).toContain('connect');
    const drawn = (named ?? '').split(',').map((item) => item.trim().replace(/…$/, '').trim());
    expect(drawn.filter((name) => name !== '' && !commands.includes(name))).toEqual([]);
  });

  it('shows the CLI reaching the turn loop only through memory, as the page says', () => {
    const cli = real.get('@patchbay/cli')!;
    expect(cli.has('@patchbay/turn')).toBe(false);
    expect(cli.has('@patchbay/memory') && real.get('@patchbay/memory')!.has('@patchbay/turn')).toBe(true);
    expect(reachable(arrows, '@patchbay/cli').has('@patchbay/turn')).toBe(true);
  });

  it('finds what a page leaves out or invents (the checks themselves work)', () => {
    const sample = parseDrawing(
      [
        '  a["@patchbay/cli<br/>(patchbay: x)"]',
        '  b["@patchbay/turn"]',
        '  c["@patchbay/sacp"]',
        '  a --> b',
        '  c -.-> b',
      ].join('\n'),
    );
    expect(sample.arrows).toEqual([
      { from: '@patchbay/cli', to: '@patchbay/turn', optional: false },
      { from: '@patchbay/sacp', to: '@patchbay/turn', optional: true },
    ]);
    expect([...reachable(sample.arrows, '@patchbay/sacp')]).toEqual([]);
    expect(
      sorted(
        parseTable('| `@patchbay/sacp` | `@patchbay/envelope`, `@patchbay/turn` (optional peer) |').get(
          '@patchbay/sacp',
        )!,
      ),
    ).toEqual([
      ['@patchbay/envelope', 'dependency'],
      ['@patchbay/turn', 'optional peer'],
    ]);
  });
});
