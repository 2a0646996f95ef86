import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typescriptBlocks } from './readme-examples.js';
import { root } from './workspace.js';

// The root README's "Use it in an app" snippets, run as printed (issue 34, item 14): the offline one
// prints the reply; the one for Claude, without ANTHROPIC_API_KEY, says what to do instead of
// crashing with a stack trace. Runs the sources through tsx, with a throwaway PATCHBAY_HOME.

const runTimeoutMs = 120_000;
const outputDir = join(root, 'tests/.generated/readme-app');
const blocks = typescriptBlocks(join(root, 'README.md')).filter((block) =>
  block.code.includes("import { runTurn } from '@patchbay/turn';"),
);

function runBlock(code: string, name: string, env: NodeJS.ProcessEnv) {
  mkdirSync(outputDir, { recursive: true });
  const file = join(outputDir, name);
  writeFileSync(file, `${code}\nexport {};\n`);
  const home = mkdtempSync(join(tmpdir(), 'patchbay-readme-app-'));
  try {
    return spawnSync(process.execPath, ['--conditions=@patchbay/source', '--import', 'tsx', file], {
      cwd: join(root, 'tests'),
      encoding: 'utf8',
      timeout: runTimeoutMs - 10_000,
      env: { ...env, PATCHBAY_HOME: home, NODE_NO_WARNINGS: '1' },
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe('the README app snippets', () => {
  it('are there: one for Claude, one offline with the scripted model', () => {
    expect(blocks.map((block) => block.code.includes('createScriptedModel'))).toEqual([false, true]);
  });

  it(
    'offline: prints the reply and the one call, and exits 0',
    () => {
      const offline = blocks.find((block) => block.code.includes('createScriptedModel'));
      const result = runBlock(offline?.code ?? '', 'offline.ts', process.env);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('Nothing is connected yet.');
      expect(result.stdout).toContain("[ [ 'refresh_connector_status', true ] ]");
      expect(result.status).toBe(0);
    },
    runTimeoutMs,
  );

  it(
    'with Claude but no ANTHROPIC_API_KEY: one line saying what to set, exit 1, no stack trace',
    () => {
      const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
      const online = blocks.find((block) => !block.code.includes('createScriptedModel'));
      const result = runBlock(online?.code ?? '', 'online.ts', env);
      expect(result.stderr.trim()).toBe(
        'Set ANTHROPIC_API_KEY, or try the offline version below (no key, no network).',
      );
      expect(result.stdout).toBe('');
      expect(result.status).toBe(1);
    },
    runTimeoutMs,
  );
});
