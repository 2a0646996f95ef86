// promptfoo `afterEach` extension hook: the progress line of each finished scenario, in the promptfoo
// process (run-promptfoo.ts registers it and passes the total and whether lines name the agent).
import { type ProgressResult, progressLine } from '../progress.js';
import { harnessFromEnv } from './harness.js';

let completed = 0;

/** What promptfoo hands an `afterEach` hook: the test and its result. */
export interface AfterEachContext {
  test: { vars?: { scenario?: unknown } };
  result: ProgressResult & { provider?: { id?: unknown } };
}

/** promptfoo `afterEach` hook: prints the finished scenario's line; changes nothing in the result. */
export async function afterEach({ test, result }: AfterEachContext): Promise<void> {
  const { scenarios } = await harnessFromEnv();
  const id = test.vars?.scenario;
  const scenario = scenarios.get(id as string) ?? { id: id as string, title: '', turns: [] };
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
