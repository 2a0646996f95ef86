import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baselines, validateScenarioFile } from '@patchbay/eval';
import { describe, expect, it } from 'vitest';
import { evalCatalog, loadScenarios } from './harness.js';

const evals = join(import.meta.dirname, '..');
const evalsReadme = readFileSync(join(evals, 'README.md'), 'utf8');
const rootReadme = readFileSync(join(evals, '..', 'README.md'), 'utf8');
// The copies on Postgres (`<id>@postgres`) exist only where PATCHBAY_DATABASE_URL is set: the counts
// the READMEs give are those of every run.
const count = loadScenarios().filter((scenario) => !scenario.id.endsWith('@postgres')).length;
const numbers = (text: string, pattern: RegExp) =>
  [...text.matchAll(pattern)].map((match) => Number(match[1]));

describe('the docs say what the code does', () => {
  it("the README's example scenario is a valid scenario file", () => {
    const examples = [...evalsReadme.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((match) => match[1]!)
      .filter((text) => text.startsWith('id: '));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples)
      expect(
        validateScenarioFile(example, 'README.md', evalCatalog()).problems.map((problem) => problem.format()),
      ).toEqual([]);
  });

  it("the READMEs' scenario counts are the number of scenarios", () => {
    expect(numbers(rootReadme, /(\d+) connector-status scenarios/g)).toEqual([count]);
    expect(numbers(evalsReadme, /the suite \((\d+) scenarios\)/g)).toEqual([count]);
    expect(numbers(evalsReadme, /fails \d+ of (\d+)/g)).toEqual([count]);
    expect(numbers(evalsReadme, /\[eval\] (\d+) scenarios ×/g)).toEqual([count]);
    expect(numbers(evalsReadme, /of (\d+) scenarios in/g)).toEqual([count]);
    expect(numbers(evalsReadme, /\[ ?\d+\/(\d+)\] PASS/g)).toEqual([count, count]);
    expect(numbers(evalsReadme, /\/(\d+)\] FAIL {2}advertise-everything/g)).toEqual([
      count * Object.keys(baselines).length,
    ]);
  });
});
