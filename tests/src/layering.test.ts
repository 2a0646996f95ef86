import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type PackageDir, packagesUnder, shippedSources } from './workspace.js';

const publicPackages = [...packagesUnder('packages'), ...packagesUnder('connectors')];
const builtins = new Set(builtinModules);

/** `@scope/name/sub/path.js` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * Packages the shipped sources of a package import, split into those imported for a value (needed
 * at run time) and those imported only for types (needed by the published `.d.ts`).
 */
function importsOf(pkg: PackageDir): { runtime: Set<string>; typesOnly: Set<string> } {
  const runtime = new Set<string>();
  const types = new Set<string>();
  const statement = /^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gms;
  const dynamic = /import\(\s*'([^']+)'\s*\)/g;
  for (const file of shippedSources(pkg)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(statement)) {
      const [, , typeKeyword, clause, specifier] = match;
      if (specifier!.startsWith('.') || specifier!.startsWith('node:') || builtins.has(specifier!)) continue;
      // `import { type A, type B }` is a types-only import as much as `import type { A, B }`.
      const names = clause!.trim();
      const allTyped =
        typeKeyword !== undefined ||
        (/^\{[\s\S]*\}$/.test(names) &&
          names
            .slice(1, -1)
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
            .every((name) => name.startsWith('type ')));
      (allTyped ? types : runtime).add(packageOf(specifier!));
    }
    for (const match of text.matchAll(dynamic)) {
      if (!match[1]!.startsWith('.') && !match[1]!.startsWith('node:')) runtime.add(packageOf(match[1]!));
    }
  }
  runtime.delete(pkg.manifest.name);
  types.delete(pkg.manifest.name);
  return { runtime, typesOnly: new Set([...types].filter((name) => !runtime.has(name))) };
}

const declared = (pkg: PackageDir, field: string) => new Set(Object.keys(pkg.manifest[field] ?? {}));

describe('every package declares what its shipped code imports', () => {
  for (const pkg of publicPackages) {
    it(`${pkg.manifest.name}: runtime imports are dependencies or peers, type imports too`, () => {
      const { runtime, typesOnly } = importsOf(pkg);
      const installed = new Set([...declared(pkg, 'dependencies'), ...declared(pkg, 'peerDependencies')]);
      expect([...runtime].filter((name) => !installed.has(name))).toEqual([]);
      expect([...typesOnly].filter((name) => !installed.has(name))).toEqual([]);
    });
  }
});

const byName = new Map(publicPackages.map((pkg) => [pkg.manifest.name as string, pkg]));

describe('a user pays only for what they use', () => {
  it('@patchbay/store needs only the contracts and their helpers at run time', () => {
    expect([...declared(byName.get('@patchbay/store')!, 'dependencies')].sort()).toEqual([
      '@patchbay/connector',
      '@patchbay/envelope',
      '@patchbay/helpers',
    ]);
  });

  it('the gate brings neither the MCP SDK, the AI SDK nor the prompt package', () => {
    const gate = declared(byName.get('@patchbay/orchestrator')!, 'dependencies');
    for (const heavy of ['@modelcontextprotocol/sdk', 'ai', '@ai-sdk/provider', '@patchbay/protocol']) {
      expect(gate.has(heavy), heavy).toBe(false);
    }
  });

  it('protocol takes gpt-tokenizer and ai as optional peers, each loaded only by its own subpath', () => {
    const protocol = byName.get('@patchbay/protocol')!;
    for (const optional of ['gpt-tokenizer', 'ai']) {
      expect(declared(protocol, 'dependencies').has(optional), optional).toBe(false);
      expect(protocol.manifest.peerDependenciesMeta?.[optional]?.optional, optional).toBe(true);
    }
    expect(importsOf(protocol).runtime.has('ai')).toBe(true); // through @patchbay/protocol/ai-sdk
    expect(Object.keys(protocol.manifest.exports)).toEqual(expect.arrayContaining(['./tokens', './ai-sdk']));
  });

  it('the turn loop takes ai as a peer, for its message types only', () => {
    const turn = byName.get('@patchbay/turn')!;
    expect(importsOf(turn).runtime.has('ai')).toBe(false);
    expect(declared(turn, 'dependencies').has('ai')).toBe(false);
    expect(declared(turn, 'peerDependencies').has('ai')).toBe(true);
  });
});
