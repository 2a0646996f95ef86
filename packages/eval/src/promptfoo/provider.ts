// promptfoo custom provider: runs one scenario (named by the test's `scenario` var) through the
// Patchbay turn runner with the model under test, on the eval config's connectors and system prompt.
// Its output is the transcript of every turn (user, tool calls, reply), so the report shows the turn
// that failed even when it is not the last; every turn's reply and trace go in metadata with the
// deterministic checks, made here (see recordRun), which the assertion reports. `config.model` is
// the agent spec (see agentSpecOf).
import { agentFor, agentSpecOf, describeAgent } from '../agents/model-from-env.js';
import { type RecordedRun, recordRun } from '../checks/index.js';
import { transcriptOf } from '../report.js';
import { runScenario } from '../run-scenario.js';
import { harnessFromEnv } from './harness.js';

/** What promptfoo hands the provider's constructor. */
export interface ProviderOptions {
  config?: { model?: string };
  label?: string;
}

/** What the provider answers promptfoo for one scenario: the transcript and what the checks read, or an error. */
export type ProviderResponse =
  | { output: string; metadata: { model: string } & RecordedRun['metadata'] }
  | { error: string };

/** The promptfoo provider: one scenario per call, through the Patchbay turn runner. */
export default class PatchbayProvider {
  readonly spec: string | undefined;
  readonly label: string | undefined;

  constructor(options: ProviderOptions = {}) {
    // Unset (promptfoo run by hand, a test): PATCHBAY_EVAL_MODEL, then the config's model.
    this.spec = options.config?.model ?? process.env.PATCHBAY_EVAL_MODEL;
    this.label = options.label;
  }

  id(): string {
    return `patchbay:${this.spec || 'reference-agent'}`;
  }

  async callApi(_prompt: string, context?: { vars?: { scenario?: unknown } }): Promise<ProviderResponse> {
    const { config, scenarios } = await harnessFromEnv();
    const spec = this.spec ?? agentSpecOf(undefined, config);
    const scenario = scenarios.get(context?.vars?.scenario as string);
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
      const message = (error as { message?: unknown } | undefined)?.message ?? error;
      return { error: `scenario ${scenario.id} failed to run: ${message}` };
    }
  }
}
