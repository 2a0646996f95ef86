// In promptfoo's process: the eval config the command ran with (PATCHBAY_EVAL_CONFIG, a file) and its
// scenarios (PATCHBAY_EVAL_SCENARIO_DIR when the command named another directory), loaded once and
// shared by the provider, the assertion and the progress hook.
import { loadEvalConfig, type ResolvedEvalConfig } from '../config.js';
import { loadScenarios } from '../load-scenarios.js';
import type { Scenario } from '../run-types.js';

/** The run that started this promptfoo process: its config, and its scenarios by id. */
export interface PromptfooHarness {
  config: ResolvedEvalConfig;
  scenarios: Map<string, Scenario>;
}

let loaded: Promise<PromptfooHarness> | undefined;

/** `{ config, scenarios }` (scenarios by id) of the run that started this promptfoo process. */
export function harnessFromEnv(): Promise<PromptfooHarness> {
  loaded ??= (async () => {
    const file = process.env.PATCHBAY_EVAL_CONFIG;
    if (!file)
      throw new Error(
        'PATCHBAY_EVAL_CONFIG is not set: run promptfoo through `patchbay-eval run --promptfoo`',
      );
    const config = await loadEvalConfig(file);
    const directory = process.env.PATCHBAY_EVAL_SCENARIO_DIR || config.scenarios;
    const scenarios = new Map(
      loadScenarios(config, { directory }).map((scenario) => [scenario.id, scenario]),
    );
    return { config, scenarios };
  })();
  return loaded;
}
