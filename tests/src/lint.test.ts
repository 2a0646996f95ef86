import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './workspace.js';

/**
 * Biome over the whole repository in a child process: ~2 s quiet, 6 s measured with both cores busy
 * and another suite running. 120 s for the test and the child alike, so only a hang fails it.
 */
const lintTimeoutMs = 120_000;

describe('pnpm lint', () => {
  it('finds no Biome errors anywhere in the repository', { timeout: lintTimeoutMs }, () => {
    const result = spawnSync(join(root, 'node_modules/.bin/biome'), ['check', '--reporter=summary', '.'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: lintTimeoutMs,
    });
    // On failure the summary names the rules and files; show it in the assertion message.
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});
