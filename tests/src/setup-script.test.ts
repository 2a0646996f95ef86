import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './workspace.js';

// scripts/setup.sh's environment, as the commands it runs see it (issue 34, item 15).

const script = readFileSync(join(root, 'scripts/setup.sh'), 'utf8');
const exported = Object.fromEntries(
  [...script.matchAll(/^export ([^\n]+)$/gm)]
    .flatMap((match) => (match[1] ?? '').split(/\s+/))
    // Literal assignments only (`export NAME` of a value computed earlier is not ours to repeat).
    .filter((pair) => /^\w+=[\w.-]*$/.test(pair))
    .map((pair) => pair.split('=') as [string, string]),
);

describe('scripts/setup.sh', () => {
  it("turns pnpm's update banner off in the variable pnpm itself reads", () => {
    expect(exported.pnpm_config_update_notifier).toBe('false');
    // Outside the repository, so no project setting is in play: only the variable decides.
    const away = mkdtempSync(join(tmpdir(), 'patchbay-setup-env-'));
    try {
      const result = spawnSync('pnpm', ['config', 'get', 'update-notifier'], {
        cwd: away,
        encoding: 'utf8',
        env: { ...process.env, ...exported },
        timeout: 60_000,
      });
      expect(result.error).toBeUndefined();
      expect(result.stdout.trim()).toBe('false');
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  }, 90_000);

  it('says in its log and the README that chromium is installed as root', () => {
    expect(script).toMatch(/log "installing Debian's chromium[^"\n]*as root/);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('runs `apt-get install chromium` **as root**');
  });
});
