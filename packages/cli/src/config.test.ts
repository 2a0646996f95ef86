import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findProjectConfig, loadConfig } from './config.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A temp tree: `<root>/home` (the Patchbay home) and `<root>/work/app/src` (a project with package.json). */
function tree() {
  const root = mkdtempSync(join(tmpdir(), 'patchbay-config-'));
  roots.push(root);
  const home = join(root, 'home');
  const project = join(root, 'work', 'app');
  const nested = join(project, 'src', 'deep');
  mkdirSync(home, { recursive: true });
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name":"app"}');
  const write = (directory: string, module: string) =>
    writeFileSync(join(directory, 'patchbay.config.json'), JSON.stringify({ connectors: [module] }));
  return { root, home, project, nested, write };
}

describe('loadConfig lookup order', () => {
  it("reads the project's patchbay.config.json from a nested directory, before the home's", async () => {
    const { home, project, nested, write } = tree();
    write(home, './home-connector.js');
    write(project, './project-connector.js');
    const config = await loadConfig(home, undefined, nested);
    expect(config.path).toBe(join(project, 'patchbay.config.json'));
    expect(config.directory).toBe(project);
    expect(config.connectors).toEqual([{ module: './project-connector.js' }]);
  });

  it("falls back to the home's config when the project has none", async () => {
    const { home, nested, write } = tree();
    write(home, './home-connector.js');
    const config = await loadConfig(home, undefined, nested);
    expect(config.path).toBe(join(home, 'patchbay.config.json'));
  });

  it('does not look above the project root (the first directory with a package.json)', () => {
    const { root, nested, write } = tree();
    write(join(root, 'work'), './outside.js');
    expect(findProjectConfig(nested)).toBeUndefined();
  });

  it('lets --config win over both', async () => {
    const { root, home, project, nested, write } = tree();
    write(home, './home.js');
    write(project, './project.js');
    const explicit = join(root, 'explicit.json');
    writeFileSync(explicit, JSON.stringify({ connectors: ['./explicit.js'] }));
    const config = await loadConfig(home, explicit, nested);
    expect(config.connectors).toEqual([{ module: './explicit.js' }]);
  });

  it('is an empty config when no file exists anywhere', async () => {
    const { home, nested } = tree();
    const config = await loadConfig(home, undefined, nested);
    expect(config).toMatchObject({ path: undefined, connectors: [], settings: {} });
  });
});
