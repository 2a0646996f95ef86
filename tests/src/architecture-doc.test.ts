// docs/architecture.md's package drawing against the workspace: every package drawn, every command
// it names a real `patchbay` command, every edge it names from the CLI a real dependency. It once drew
// `status` and `approvals` commands that never existed and a CLI → turn edge that does not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagesUnder, root } from './workspace.js';

const document = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const drawing = document.split('## Packages and the direction of dependencies')[1]?.split('```')[1] ?? '';
const packages = new Map(packagesUnder('packages').map((pkg) => [pkg.manifest.name as string, pkg]));
const dependsOn = (name: string, dependency: string) =>
  Object.hasOwn(packages.get(name)?.manifest.dependencies ?? {}, dependency);

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

describe('docs/architecture.md, the package drawing', () => {
  it('draws every package of packages/', () => {
    expect(drawing).not.toBe('');
    expect([...packages.keys()].filter((name) => !drawing.includes(name))).toEqual([]);
  });

  it('names only commands patchbay has', () => {
    const named = /\(patchbay: ([^)]*)\)/.exec(drawing)?.[1];
    expect(named).toBeDefined();
    const commands = cliCommands();
    expect(commands).toContain('connect');
    const drawn = (named ?? '').split(',').map((item) => item.trim().replace(/…$/, '').trim());
    expect(drawn.filter((name) => name !== '' && !commands.includes(name))).toEqual([]);
  });

  it('draws from the CLI only edges its package.json has, and its way to the turn loop through memory', () => {
    const cliLines = drawing.split('\n').filter((line) => /@patchbay\/cli|└──▶/.test(line));
    const targets = cliLines
      .flatMap((line) => [...line.matchAll(/@patchbay\/[a-z-]+/g)].map((match) => match[0]))
      .filter((name) => name !== '@patchbay/cli');
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((name) => !dependsOn('@patchbay/cli', name))).toEqual([]);
    expect(dependsOn('@patchbay/cli', '@patchbay/turn')).toBe(false);
    expect(
      dependsOn('@patchbay/cli', '@patchbay/memory') && dependsOn('@patchbay/memory', '@patchbay/turn'),
    ).toBe(true);
    expect(dependsOn('@patchbay/eval', '@patchbay/turn')).toBe(true);
  });
});
