// The evals' tests run @patchbay/eval with this repository's config (patchbay-eval.config.mjs).
import { join } from 'node:path';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import {
  catalogOf,
  loadScenarios as load,
  loadEvalConfig,
  runScenario as run,
  type Scenario,
} from '@patchbay/eval';
import { readScenarioFiles as readFiles } from '@patchbay/eval/internal';

/** The repository's eval config, resolved. */
export const config = await loadEvalConfig(join(import.meta.dirname, '..', 'patchbay-eval.config.mjs'));
/** The directory of the committed scenarios (or PATCHBAY_EVAL_SCENARIOS). */
export const scenarioDirectory = config.scenarios;
/** What the committed scenarios may name. */
export const evalCatalog = () => catalogOf(config);
/** The scenarios, validated; `filter` keeps the ids it matches. */
export const loadScenarios = (filter?: string, directory?: string) =>
  load(config, { ...(filter ? { filter } : {}), ...(directory ? { directory } : {}) });
/** Every scenario file's document, validated. */
export const readScenarioFiles = (directory = scenarioDirectory, catalog = evalCatalog()) =>
  readFiles(directory, catalog);
/** Runs a scenario on the repository's config. */
export const runScenario = (scenario: Scenario, model: LanguageModelV4) => run(scenario, model, config);
