import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './workspace.js';

describe('pnpm lint', () => {
  it('finds no Biome errors anywhere in the repository', () => {
    const result = spawnSync(join(root, 'node_modules/.bin/biome'), ['check', '--reporter=summary', '.'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 120_000,
    });
    // On failure the summary names the rules and files; show it in the assertion message.
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});
