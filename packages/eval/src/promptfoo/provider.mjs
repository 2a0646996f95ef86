// promptfoo custom provider: runs one scenario (named by the test's `scenario` var) through the
// Patchbay turn runner with the model under test, on the eval config's connectors and system prompt.
// Its output is the transcript of every turn (user, tool calls, reply), so the report shows the turn
// that failed even when it is not the last; every turn's reply and trace go in metadata with the
// deterministic checks, made here (see recordRun), which the assertion reports. `config.model` is
// the agent spec (see agentSpecOf).

import { agentFor, agentSpecOf, describeAgent } from '../agents/model-from-env.mjs';
import { recordRun } from '../checks.mjs';
import { transcriptOf } from '../report.mjs';
import { runScenario } from '../run-scenario.mjs';
import { harnessFromEnv } from './harness.mjs';

export default class PatchbayProvider {
  constructor(options = {}) {
    // Unset (promptfoo run by hand, a test): PATCHBAY_EVAL_MODEL, then the config's model.
    this.spec = options.config?.model ?? process.env.PATCHBAY_EVAL_MODEL;
    this.label = options.label;
  }

  id() {
    return `patchbay:${this.spec || 'reference-agent'}`;
  }

  async callApi(_prompt, context) {
    const { config, scenarios } = await harnessFromEnv();
    const spec = this.spec ?? agentSpecOf(undefined, config);
    const scenario = scenarios.get(context?.vars?.scenario);
    if (!scenario) return { error: `unknown scenario ${context?.vars?.scenario}` };
    try {
      const run = await runScenario(scenario, agentFor(spec, config), config);
      // The checks are made here, where the secrets the run handed out are known; promptfoo keeps the
      // metadata in its results, so the secrets stay out of it.
      const { metadata } = recordRun(scenario, run);
      return {
        output: transcriptOf(scenario, run),
        metadata: { model: this.label ?? describeAgent(spec, config), ...metadata },
      };
    } catch (error) {
      return { error: `scenario ${scenario.id} failed to run: ${error?.message ?? error}` };
    }
  }
}
