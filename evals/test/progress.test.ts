import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselines } from '../agents/baselines.mjs';
import { createReferenceAgent } from '../agents/reference-agent.mjs';
import { loadScenarios } from '../lib/load-scenarios.mjs';
import { progressLine } from '../lib/progress.mjs';
import { runScenario } from '../lib/run-scenario.mjs';

const scenarios = loadScenarios();
const scenario = (id: string) => scenarios.find((candidate) => candidate.id === id)!;
const resultOf = (run: unknown, success: boolean) => ({ success, response: { metadata: { run } } });

describe('progress lines', () => {
  it('a passing scenario: counter, PASS, id and title', async () => {
    const longGap = scenario('long-gap');
    const run = await runScenario(longGap, createReferenceAgent());
    expect(progressLine({ completed: 3, total: 32, scenario: longGap, result: resultOf(run, true) })).toBe(
      '[ 3/32] PASS  long-gap: Long conversation gap',
    );
  });

  it('a failing scenario: the first failing check with its turn, and how many more failed', async () => {
    const longGap = scenario('long-gap');
    const run = await runScenario(longGap, baselines['stale-status']());
    const line = progressLine({
      completed: 12,
      total: 96,
      agent: 'stale-status',
      scenario: longGap,
      result: resultOf(run, false),
    });
    expect(line).toBe(
      '[12/96] FAIL  stale-status  long-gap: Long conversation gap — turn 2: slack_post_message ran and succeeded (+1 more)',
    );
  });

  it('a scenario that could not run: ERROR and the first line of the error', () => {
    const line = progressLine({
      completed: 1,
      total: 1,
      scenario: scenario('long-gap'),
      result: { success: false, error: 'scenario long-gap failed to run: boom\n    at somewhere' },
    });
    expect(line).toBe('[1/1] ERROR long-gap: Long conversation gap — scenario long-gap failed to run: boom');
  });
});

describe('pnpm eval prints one line per scenario and a count, nothing else', () => {
  const results = mkdtempSync(join(tmpdir(), 'patchbay-eval-results-'));
  afterAll(() => rmSync(results, { recursive: true, force: true }));

  it('for every agent and scenario, as each finishes', { timeout: 300_000 }, () => {
    const run = spawnSync(
      process.execPath,
      ['scripts/run-eval.mjs', '--baselines', '--filter', '^tool-failure$'],
      {
        cwd: join(import.meta.dirname, '..'),
        encoding: 'utf8',
        env: { ...process.env, PATCHBAY_EVAL_RESULTS: results },
      },
    );
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n');
    const progress = lines.filter((line) => /^ {2}\[\d\/3\] (PASS|FAIL|ERROR) /.test(line));
    expect(progress).toHaveLength(3);
    expect(progress.map((line) => line.slice(2, 7))).toEqual(['[1/3]', '[2/3]', '[3/3]']);
    // Scenarios run four at a time, so the counter of a given line varies from run to run.
    expect(progress.map((line) => line.slice(8))).toContain(
      'FAIL  advertise-everything  tool-failure: Tool failure handling — turn 1: reply says "Pull request #999 does not exist in acme/web."',
    );
    expect(progress.filter((line) => line.includes(' PASS '))).toHaveLength(2);
    // The first line announces the run; after the progress lines comes only the summary.
    expect(lines[0]).toBe('[eval] 1 scenario × 3 agents');
    expect(lines.slice(1, 4)).toEqual(progress);
    expect(lines.at(-1)).toMatch(/^\[eval:baselines\] every baseline fails the scenarios aimed at it/);
    expect(run.stdout).not.toMatch(/Starting evaluation|promptfoo view|Writing output|Eval complete/);
    expect(run.status).toBe(0);
  });
});
