import { baselines, createReferenceAgent, progressLine } from '@patchbay/eval';
import { describe, expect, it } from 'vitest';
import { loadScenarios, runScenario } from './harness.js';

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
