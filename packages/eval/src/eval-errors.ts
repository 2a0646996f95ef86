// The harness's own errors: `PatchbayError`s, each class with its own brand, so
// `EvalConfigError.isInstance` and `ScenarioFileError.isInstance` hold across copies of the package.
import { PatchbayError } from '@patchbay/envelope';
import type { ScenarioProblem } from './scenario-format/scenario-problem.js';

/** The codes the harness's errors carry, stable across releases (listed in @patchbay/envelope's codes). */
export type EvalErrorCode = 'eval_config_invalid' | 'scenario_file_invalid';

/** A config that failed to load or validate; `problems` lists each one as `file: path: message`. */
export class EvalConfigError extends PatchbayError {
  /** Brand of `EvalConfigError`; see `PatchbayError.isInstance`. */
  static override readonly brand: symbol = Symbol.for('patchbay.error.eval-config');

  declare readonly code: 'eval_config_invalid';
  readonly problems: string[];

  constructor(file: string, problems: string[]) {
    super(
      'eval_config_invalid',
      `invalid eval config ${file}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    );
    this.name = 'EvalConfigError';
    this.problems = problems;
  }
}

/** Thrown by the loader when a scenario file does not validate; `problems` lists every one found. */
export class ScenarioFileError extends PatchbayError {
  /** Brand of `ScenarioFileError`; see `PatchbayError.isInstance`. */
  static override readonly brand: symbol = Symbol.for('patchbay.error.scenario-file');

  declare readonly code: 'scenario_file_invalid';
  readonly problems: ScenarioProblem[];

  /** `base`: the directory the problems' files are shown relative to. */
  constructor(problems: ScenarioProblem[], base?: string) {
    const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
    super(
      'scenario_file_invalid',
      `invalid scenario files (${count}):\n${problems.map((problem) => `  ${problem.format(base)}`).join('\n')}`,
    );
    this.name = 'ScenarioFileError';
    this.problems = problems;
  }
}
