// promptfoo custom provider: runs one scenario (named by the test's `scenario` var) through the
// Patchbay turn runner with the model under test. Its output is the transcript of every turn (user,
// tool calls, reply), so the report shows the turn that failed even when it is not the last; every
// turn's reply and trace go in metadata, where the deterministic assertions read them.

import { describeModel, modelFromSpec } from '../agents/model-from-env.mjs';
import { loadScenarios } from '../lib/load-scenarios.mjs';
import { transcriptOf } from '../lib/report.mjs';
import { runScenario } from '../lib/run-scenario.mjs';

const scenarios = new Map(loadScenarios().map((scenario) => [scenario.id, scenario]));

export default class PatchbayProvider {
  constructor(options = {}) {
    this.spec = options.config?.model ?? process.env.PATCHBAY_EVAL_MODEL ?? '';
    this.label = options.label ?? describeModel(this.spec || undefined);
  }

  id() {
    return `patchbay:${this.spec || 'reference-agent'}`;
  }

  async callApi(_prompt, context) {
    const scenario = scenarios.get(context?.vars?.scenario);
    if (!scenario) return { error: `unknown scenario ${context?.vars?.scenario}` };
    try {
      const run = await runScenario(scenario, modelFromSpec(this.spec || undefined));
      return {
        output: transcriptOf(scenario, run),
        metadata: {
          model: describeModel(this.spec || undefined),
          run: { turns: run.turns, effects: run.effects, owners: run.owners },
        },
      };
    } catch (error) {
      return { error: `scenario ${scenario.id} failed to run: ${error?.message ?? error}` };
    }
  }
}
