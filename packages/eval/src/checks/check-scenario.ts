// A whole run's checks, and the checks a result row keeps beside its run.
import type {
  CheckResult,
  Scenario,
  ScenarioCheck,
  ScenarioConnectorState,
  ScenarioRun,
} from '../run-types.js';

/** What the checks read of a run (a result row keeps the run without its reply and secrets). */
export type CheckedRun = Omit<ScenarioRun, 'reply'>;

import { checkTurn } from './check-turn.js';
import { secretFinder } from './secret-finder.js';
import type { TurnCheckContext } from './turn-view.js';

const statusOf = (raw: ScenarioConnectorState) => (typeof raw === 'string' ? raw : raw.status);

/** Every connector an admin disables at some point of the scenario. */
function disabledEver(scenario: Scenario): string[] {
  const disabled = new Set<string>();
  for (const spec of [scenario.connectors ?? {}, ...scenario.turns.map((turn) => turn.set ?? {})])
    for (const [id, raw] of Object.entries(spec)) if (statusOf(raw) === 'disabled_by_admin') disabled.add(id);
  return [...disabled];
}

/** Per turn, the connectors disabled when it starts (a mid-turn change reaches the model only on refresh). */
function disabledAtEachTurn(scenario: Scenario): string[][] {
  const current: Record<string, string> = {};
  return scenario.turns.map((turn) => {
    const initial = turn === scenario.turns[0] ? (scenario.connectors ?? {}) : {};
    for (const spec of [initial, turn.set ?? {}])
      for (const [id, raw] of Object.entries(spec)) current[id] = statusOf(raw);
    return Object.keys(current).filter((id) => current[id] === 'disabled_by_admin');
  });
}

/** How a reply may name each connector: the run's names, and the Patchbay connectors' own. */
const connectorNames = (run: CheckedRun) => ({
  ...run.names,
  github: 'GitHub',
  slack: 'Slack',
  jira: 'Jira',
  linear: 'Linear',
  notion: 'Notion',
  discord: 'Discord',
  email: 'Email',
  sms: 'SMS',
});

/** Checks a whole run; `pass` when every check of every turn passes. */
export function checkScenario(scenario: Scenario, run: CheckedRun): ScenarioCheck {
  const disabledAt = disabledAtEachTurn(scenario);
  const context: TurnCheckContext = {
    holdsSecret: secretFinder(run.secrets),
    disabled: disabledEver(scenario),
    owners: run.owners,
    adversary: scenario.adversary,
    names: connectorNames(run),
    effects: run.effects,
    maxResultChars: scenario.turn_options?.max_result_chars,
  };
  const results: CheckResult[] = run.turns.flatMap((turn, index) =>
    checkTurn(turn, scenario.turns[index]?.expect, { ...context, disabledNow: disabledAt[index] ?? [] }).map(
      (result) => ({ ...result, turn: index + 1 }),
    ),
  );
  const failed = results.filter((result) => !result.pass);
  return { pass: failed.length === 0, results, failed };
}

/** What a result row keeps of a run: the run without its secrets, and the checks made while they were known. */
export interface RecordedRun {
  result: ScenarioCheck;
  metadata: {
    run: Pick<ScenarioRun, 'turns' | 'effects' | 'owners' | 'names'>;
    checks: CheckResult[];
  };
}

/**
 * What a result row keeps of a run: the run without the secrets it handed out (a results file must
 * not hold them), and the checks made while they were known. `result` is the `checkScenario` result.
 */
export function recordRun(scenario: Scenario, run: ScenarioRun): RecordedRun {
  const result = checkScenario(scenario, run);
  return {
    result,
    metadata: {
      run: { turns: run.turns, effects: run.effects, owners: run.owners, names: run.names },
      checks: result.results,
    },
  };
}

/** A result row's response as the checks read it: its recorded checks, or its run. */
export interface ResponseWithRun {
  metadata?: { checks?: unknown; run?: CheckedRun | undefined } | undefined;
}

/**
 * The checks of a result row's response: those recorded beside the run (see {@link recordRun}), else
 * made again from the run; undefined when the row has no run.
 */
export function checksOfResponse(
  scenario: Scenario,
  response: ResponseWithRun | undefined,
): ScenarioCheck | undefined {
  const recorded = response?.metadata?.checks;
  if (Array.isArray(recorded)) {
    const results = recorded as CheckResult[];
    const failed = results.filter((item) => !item.pass);
    return { pass: failed.length === 0, results, failed };
  }
  const run = response?.metadata?.run;
  return run ? checkScenario(scenario, run) : undefined;
}
