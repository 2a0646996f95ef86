import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselines } from './agents/baselines.js';
import { createReferenceAgent } from './agents/reference-agent.js';
import { standInScenarioFile, standInScenarios } from './eval-fixtures.test-helper.js';
import { progressLine } from './progress.js';
import { runScenario } from './run-scenario.js';
import type { ScenarioRun } from './run-types.js';

const scratch = mkdtempSync(join(tmpdir(), 'patchbay-eval-progress-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const { config, scenarios } = standInScenarios(scratch, standInScenarioFile);
const longGap = scenarios.find((candidate) => candidate.id === 'long-gap')!;
const resultOf = (run: ScenarioRun, success: boolean) => ({ success, response: { metadata: { run } } });

describe('progress lines', () => {
  it('a passing scenario: counter, PASS, id and title', async () => {
    const run = await runScenario(longGap, createReferenceAgent(), config);
    expect(progressLine({ completed: 3, total: 32, scenario: longGap, result: resultOf(run, true) })).toBe(
      '[ 3/32] PASS  long-gap: Long conversation gap',
    );
  });

  it('a failing scenario: the first failing check with its turn, and how many more failed', async () => {
    const run = await runScenario(longGap, baselines['stale-status']!(), config);
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
      scenario: longGap,
      result: { success: false, error: 'scenario long-gap failed to run: boom\n    at somewhere' },
    });
    expect(line).toBe('[1/1] ERROR long-gap: Long conversation gap — scenario long-gap failed to run: boom');
  });

  it('a scenario whose checks passed but a graded rubric failed: FAIL and the rubric’s reason', async () => {
    const run = await runScenario(longGap, createReferenceAgent(), config);
    const line = progressLine({
      completed: 2,
      total: 2,
      scenario: longGap,
      result: { ...resultOf(run, false), gradingResult: { reason: 'the reply is rude\nmore' } },
    });
    expect(line).toBe('[2/2] FAIL  long-gap: Long conversation gap — the reply is rude');
  });
});
