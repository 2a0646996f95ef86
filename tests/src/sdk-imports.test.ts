import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, packagesUnder, root } from './workspace.js';

// The MCP SDK's module layout (`sdk/types.js`, `sdk/server/index.js`, …) is an implementation detail
// of the SDK: each package takes the SDK's names from one local module, `src/sdk.ts`, so an upgrade
// that moves them touches one file per package. Tests, fixtures and benchmarks play the other side
// of the protocol (an MCP host or server built on the SDK, as a user's would be) and import it
// directly; the rule covers the sources a package ships.

const sdkModule = 'src/sdk.ts';

/** Specifiers of the MCP SDK in static imports, re-exports and dynamic imports of `text`. */
export function sdkSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(
    /(?:from\s+|import\s*\(\s*|import\s+)['"](@modelcontextprotocol\/sdk[^'"]*)['"]/g,
  ))
    found.push(match[1]!);
  return found;
}

const packages = [...packagesUnder('packages'), ...packagesUnder('connectors')];

describe('the MCP SDK sits behind one module per package', () => {
  it('finds static, type-only, re-exported and dynamic imports of the SDK', () => {
    const sample = [
      "import { Server } from '@modelcontextprotocol/sdk/server/index.js';",
      "import type { Tool } from '@modelcontextprotocol/sdk/types.js';",
      "export { McpError } from '@modelcontextprotocol/sdk/types.js';",
      "const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');",
      "import '@modelcontextprotocol/sdk/server/stdio.js';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(sdkSpecifiers(sample)).toEqual([
      '@modelcontextprotocol/sdk/server/index.js',
      '@modelcontextprotocol/sdk/types.js',
      '@modelcontextprotocol/sdk/types.js',
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/server/stdio.js',
    ]);
  });

  it('no shipped source imports the SDK except src/sdk.ts', () => {
    const offenders: string[] = [];
    for (const pkg of packages) {
      for (const file of filesUnder(join(pkg.dir, 'src'), /\.(?:ts|tsx|mts)$/)) {
        if (/\.test(?:-d)?\.tsx?$|\.d\.mts$/.test(file)) continue;
        if (relative(pkg.dir, file) === sdkModule) continue;
        if (sdkSpecifiers(readFileSync(file, 'utf8')).length > 0) offenders.push(relative(root, file));
      }
    }
    expect(offenders).toEqual([]);
  });

  it('every package that depends on the SDK has its src/sdk.ts, and it imports the SDK', () => {
    const dependents = packages.filter(
      (pkg) => pkg.manifest.dependencies?.['@modelcontextprotocol/sdk'] !== undefined,
    );
    expect(dependents.map((pkg) => pkg.manifest.name).sort()).toEqual([
      '@patchbay/cli',
      '@patchbay/mcp',
      '@patchbay/memory',
    ]);
    for (const pkg of dependents) {
      const text = readFileSync(join(pkg.dir, sdkModule), 'utf8');
      expect(sdkSpecifiers(text).length, pkg.manifest.name).toBeGreaterThan(0);
    }
  });
});
