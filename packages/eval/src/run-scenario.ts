// Runs one scenario through the real Patchbay turn runner: the config's connectors (or, with
// `packages:`, the connectors it names, against the config's fake service), a status source set up
// as the scenario says (in memory, or with `store:` a real store of the config's: SQLite, Postgres),
// the orchestrator gate, and one runTurn per user turn (turns marked `with_next` at the same time).
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { EvalServiceSession, ResolvedEvalConfig } from './config.js';
import { RunSession } from './run-session.js';
import { extensionFor } from './run-setup.js';
import type { Scenario, ScenarioRun } from './run-types.js';

export { evalCredentials, evalSecretPattern } from './credentials.js';
export { evalSubject } from './run-setup.js';

/**
 * Runs a scenario with a model on a config's connectors, system prompt and extensions; returns the
 * last reply and every turn's reply, trace and effects (and, for scenarios with `packages:` and a
 * fake service, the requests that reached it).
 */
export async function runScenario(
  scenario: Scenario,
  model: LanguageModelV4,
  config: ResolvedEvalConfig,
): Promise<ScenarioRun> {
  if (!scenario.packages || !config.service) return runTurns(scenario, model, undefined, config);
  // Offline agents never talk HTTP, so any request no route answers is a failure; a live model's
  // own API calls pass, while unanswered requests to the services still fail.
  const strict = String(model.provider).startsWith('patchbay.');
  return config.service.run({ routes: scenario.http ?? {}, strict }, (service) =>
    runTurns(scenario, model, service, config),
  );
}

/** The database a store scenario runs on: the copy's (`<id>@postgres`), else the one `store:` names. */
const databaseOf = (scenario: Scenario) =>
  scenario.database ?? (scenario.store === 'all' ? 'sqlite' : scenario.store!);

async function runTurns(
  scenario: Scenario,
  model: LanguageModelV4,
  service: EvalServiceSession | undefined,
  config: ResolvedEvalConfig,
): Promise<ScenarioRun> {
  // `store:`: a real store of the config's, fresh for this run and removed after it.
  const session = scenario.store
    ? await extensionFor(config, 'store', scenario).open(databaseOf(scenario))
    : undefined;
  try {
    const run = new RunSession(scenario, model, service, config, session?.store, session?.setProposal);
    await run.setUp();
    await run.playAll();
    return run.result();
  } finally {
    await session?.close();
  }
}
