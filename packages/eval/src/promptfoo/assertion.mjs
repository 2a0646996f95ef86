// promptfoo assertion: the deterministic checks of a scenario over the run's traces.
import { checkScenario } from '../lib/checks.mjs';
import { loadScenarios } from '../lib/load-scenarios.mjs';
import { failureLines } from '../lib/report.mjs';

const scenarios = new Map(loadScenarios().map((scenario) => [scenario.id, scenario]));

export default function scenarioChecks(_output, context) {
  const scenario = scenarios.get(context.vars.scenario);
  const run = context.providerResponse?.metadata?.run;
  if (!run) return { pass: false, score: 0, reason: 'no trace in the provider response' };
  const result = checkScenario(scenario, run);
  return {
    pass: result.pass,
    score: result.pass ? 1 : 0,
    reason: result.pass
      ? `${result.results.length} checks passed`
      : failureLines(scenario, result).join('\n'),
    componentResults: result.results.map((item) => ({
      pass: item.pass,
      score: item.pass ? 1 : 0,
      reason: `turn ${item.turn}: ${item.reason}`,
    })),
  };
}
