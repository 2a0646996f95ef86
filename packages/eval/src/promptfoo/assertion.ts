// promptfoo assertion: the deterministic checks of a scenario over the run's traces, as the provider
// made them (it knew the secrets the run handed out, which the results never hold).
import { checksOfResponse, type ResponseWithRun } from '../checks/index.js';
import { failureLines } from '../report.js';
import { harnessFromEnv } from './harness.js';

/** What promptfoo hands an assertion: the test's variables and the provider's response. */
export interface AssertionContext {
  vars: { scenario?: unknown };
  providerResponse?: ResponseWithRun | undefined;
}

/** What the assertion answers promptfoo: pass, score, reason, and each check as a component. */
export interface AssertionResult {
  pass: boolean;
  score: number;
  reason: string;
  componentResults?: Array<{ pass: boolean; score: number; reason: string }>;
}

/** The promptfoo assertion: the scenario's deterministic checks. */
export default async function scenarioChecks(
  _output: unknown,
  context: AssertionContext,
): Promise<AssertionResult> {
  const { scenarios } = await harnessFromEnv();
  const scenario = scenarios.get(context.vars.scenario as string);
  const result = scenario ? checksOfResponse(scenario, context.providerResponse) : undefined;
  if (!scenario || !result) return { pass: false, score: 0, reason: 'no trace in the provider response' };
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
