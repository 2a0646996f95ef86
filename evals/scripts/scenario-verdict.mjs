// One scenario's verdict, the same for every script that runs the eval suite without promptfoo
// (check-scenarios.mjs, the mutation worker): the scenario through @patchbay/eval's runner with the
// offline reference agent (or the scripted adversary it names), then its checks. A scenario that
// throws is a failure, with the error as its reason.
import { checkScenario, createReferenceAgent, runScenario } from '@patchbay/eval';

/**
 * @param {import('@patchbay/eval').Scenario} scenario
 * @param {import('@patchbay/eval').ResolvedEvalConfig} config
 * @returns {Promise<{ pass: boolean, failed: { turn: number, reason: string }[] }>}
 */
export async function scenarioVerdict(scenario, config) {
  try {
    return checkScenario(scenario, await runScenario(scenario, createReferenceAgent(), config));
  } catch (error) {
    return { pass: false, failed: [{ turn: 0, reason: `did not run: ${error?.message ?? error}` }] };
  }
}

/** A verdict's reasons on one line, at most `max` characters. */
export const reasonsOf = (verdict, max = 600) =>
  verdict.failed
    .map((check) => `[turn ${check.turn}] ${check.reason}`)
    .join(' | ')
    .slice(0, max);
