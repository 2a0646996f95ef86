// promptfoo `afterEach` extension hook: the progress line of each finished scenario, in the promptfoo
// process (run-eval.mjs registers it and passes the total and whether lines name the agent).
import { progressLine } from '../progress.mjs';
import { harnessFromEnv } from './harness.mjs';

let completed = 0;

/** promptfoo `afterEach` hook: prints the finished scenario's line; changes nothing in the result. */
export async function afterEach({ test, result }) {
  const { scenarios } = await harnessFromEnv();
  const scenario = scenarios.get(test.vars?.scenario) ?? { id: test.vars?.scenario, title: '', turns: [] };
  completed += 1;
  const total = Number(process.env.PATCHBAY_EVAL_PROGRESS_TOTAL) || completed;
  const agent =
    process.env.PATCHBAY_EVAL_PROGRESS_AGENTS === '1'
      ? String(result.provider?.id ?? '')
          .replace(/^patchbay:/, '')
          .padEnd(20)
      : undefined;
  process.stdout.write(`  ${progressLine({ completed, total, agent, scenario, result })}\n`);
}
