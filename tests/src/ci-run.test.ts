import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { root } from './workspace.js';

// Each case runs bash, grep and a stand-in pnpm: ~0.5 s quiet, a few seconds with both cores busy.
const ciRunTimeoutMs = 60_000;
vi.setConfig({ testTimeout: ciRunTimeoutMs });

// .ci/run in a throwaway checkout whose setup.sh and pnpm are stand-ins: each case picks how setup
// ends and what `pnpm test` prints, and checks the last line and the exit status CI sees.
const checkout = mkdtempSync(join(tmpdir(), 'patchbay-ci-run-'));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));
mkdirSync(join(checkout, '.ci'));
mkdirSync(join(checkout, 'scripts'));
mkdirSync(join(checkout, 'bin'));
copyFileSync(join(root, '.ci/run'), join(checkout, '.ci/run'));
writeFileSync(join(checkout, 'scripts/setup.sh'), 'echo "[setup] stand-in"\nexit "$FAKE_SETUP_STATUS"\n');
writeFileSync(join(checkout, 'bin/pnpm'), '#!/bin/sh\nprintf "%b" "$FAKE_TEST_OUTPUT"\n');
chmodSync(join(checkout, 'bin/pnpm'), 0o755);

function ciRun(setupStatus: number, testOutput: string | undefined) {
  if (testOutput === undefined) rmSync(join(checkout, 'node_modules'), { recursive: true, force: true });
  else mkdirSync(join(checkout, 'node_modules'), { recursive: true });
  const result = spawnSync('bash', [join(checkout, '.ci/run')], {
    encoding: 'utf8',
    env: {
      PATH: `${join(checkout, 'bin')}:/usr/bin:/bin`,
      HOME: checkout,
      FAKE_SETUP_STATUS: String(setupStatus),
      FAKE_TEST_OUTPUT: testOutput ?? '',
    },
    timeout: ciRunTimeoutMs,
  });
  const lines = result.stdout.trimEnd().split('\n');
  return {
    status: result.status,
    last: lines.at(-1),
    summaries: lines.filter((line) => / passed, /.test(line)),
  };
}

describe('.ci/run', () => {
  it('passes when setup and every test passed, printing the summary once, last', () => {
    const run = ciRun(0, 'Suites:\\n  @x/a  5 passed, 0 failed\\n5 passed, 0 failed\\n');
    expect(run).toMatchObject({ status: 0, last: '5 passed, 0 failed' });
    expect(run.summaries).toEqual(['  @x/a  5 passed, 0 failed', '5 passed, 0 failed']);
  });

  it('fails when a test failed, though pnpm test exited 0', () => {
    expect(ciRun(0, '4 passed, 1 failed\\n')).toMatchObject({ status: 1, last: '4 passed, 1 failed' });
  });

  it('counts a failed setup as one more failure, still ending with the summary line', () => {
    expect(ciRun(1, '5 passed, 0 failed\\n')).toMatchObject({ status: 1, last: '5 passed, 1 failed' });
  });

  it('adds nothing when setup failed only because the eval failed (the summary counts those)', () => {
    expect(ciRun(3, '30 passed, 2 failed\\n')).toMatchObject({ status: 1, last: '30 passed, 2 failed' });
  });

  it('ends with a summary line when the tests could not run at all', () => {
    expect(ciRun(1, undefined)).toMatchObject({ status: 1, last: '0 passed, 2 failed' });
    expect(ciRun(0, 'Error: something crashed\\n')).toMatchObject({ status: 1, last: '0 passed, 1 failed' });
  });
});
