// promptfoo assertion: the deterministic checks of a scenario over the run's traces, as the provider
// made them (it knew the secrets the run handed out, which the results never hold).
import { checksOfResponse } from '../checks.mjs';
import { failureLines } from '../report.mjs';
import { harnessFromEnv } from './harness.mjs';

export default async function scenarioChecks(_output, context) {
  const { scenarios } = await harnessFromEnv();
  const scenario = scenarios.get(context.vars.scenario);
  const result = checksOfResponse(scenario, context.providerResponse);
  if (!result) return { pass: false, score: 0, reason: 'no trace in the provider response' };
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
