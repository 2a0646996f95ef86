import { PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { EvalConfigError, ScenarioFileError } from './eval-errors.js';
import { ScenarioProblem } from './scenario-format/index.js';

const problem = new ScenarioProblem({
  file: '/repo/scenarios/a.yaml',
  line: 3,
  column: 5,
  message: 'unknown key "x"',
});

describe("the harness's errors", () => {
  it('are PatchbayErrors with their own code, name and problems', () => {
    const config = new EvalConfigError('/repo/patchbay-eval.config.mjs', ['modle: unknown key']);
    expect(config).toBeInstanceOf(PatchbayError);
    expect(config).toMatchObject({
      code: 'eval_config_invalid',
      name: 'EvalConfigError',
      problems: ['modle: unknown key'],
    });
    expect(config.message).toBe('invalid eval config /repo/patchbay-eval.config.mjs:\n  modle: unknown key');

    const files = new ScenarioFileError([problem], '/repo');
    expect(files).toBeInstanceOf(PatchbayError);
    expect(files).toMatchObject({
      code: 'scenario_file_invalid',
      name: 'ScenarioFileError',
      problems: [problem],
    });
    expect(files.message).toBe(
      'invalid scenario files (1 problem):\n  scenarios/a.yaml:3:5: unknown key "x"',
    );
  });

  it('answer isInstance for their own class only, across copies of the package (the brand)', () => {
    const config = new EvalConfigError('c', []);
    const files = new ScenarioFileError([]);
    expect(PatchbayError.isInstance(config)).toBe(true);
    expect(PatchbayError.isInstance(files)).toBe(true);
    expect(EvalConfigError.isInstance(config)).toBe(true);
    expect(ScenarioFileError.isInstance(files)).toBe(true);
    // A class that forgot its brand would answer for every PatchbayError.
    expect(EvalConfigError.isInstance(files)).toBe(false);
    expect(ScenarioFileError.isInstance(config)).toBe(false);
    expect(EvalConfigError.isInstance(new PatchbayError('internal_error', 'x'))).toBe(false);
    expect(ScenarioFileError.isInstance(new PatchbayError('internal_error', 'x'))).toBe(false);
    // A copy from another install: no shared class, the same Symbol.for brand.
    const copy = Object.defineProperty(new Error('copy'), Symbol.for('patchbay.error.scenario-file'), {
      value: true,
    });
    expect(ScenarioFileError.isInstance(copy)).toBe(true);
  });
});
