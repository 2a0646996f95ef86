// In promptfoo's process: the eval config the command ran with (PATCHBAY_EVAL_CONFIG, a file) and its
// scenarios (PATCHBAY_EVAL_SCENARIO_DIR when the command named another directory), loaded once and
// shared by the provider, the assertion and the progress hook.
import { loadEvalConfig } from '../config.ts';
import { loadScenarios } from '../load-scenarios.mjs';

let loaded;

/** `{ config, scenarios }` (scenarios by id) of the run that started this promptfoo process. */
export function harnessFromEnv() {
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
