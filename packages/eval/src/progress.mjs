// Terminal progress of `pnpm eval`: one line per scenario as it finishes, written by a promptfoo
// `afterEach` extension hook in the promptfoo process (run-eval.mjs registers it and passes the total).
import { checkScenario } from './checks.mjs';
import { loadScenarios } from './load-scenarios.mjs';

/**
 * One progress line: `[ n/total] PASS|FAIL|ERROR  [agent]  id: title`, and for a failure the first
 * failing check with its turn (and how many more failed).
 */
export function progressLine({ completed, total, agent, scenario, result }) {
  const counter = `[${String(completed).padStart(String(total).length)}/${total}]`;
  const run = result.response?.metadata?.run;
  const failed = run ? checkScenario(scenario, run).failed : [];
  const firstLine = (text) => String(text).split('\n')[0];
  let status = 'PASS';
  let detail = '';
  if (!run) {
    status = 'ERROR';
    detail = firstLine(result.error ?? result.response?.error ?? 'no run');
  } else if (failed.length > 0) {
    status = 'FAIL';
    detail = `turn ${failed[0].turn}: ${failed[0].name}${failed.length > 1 ? ` (+${failed.length - 1} more)` : ''}`;
  } else if (!result.success) {
    // The deterministic checks passed; a model-graded rubric did not.
    status = 'FAIL';
    detail = firstLine(result.gradingResult?.reason ?? result.error ?? 'failed');
  }
  const who = agent ? `${agent}  ` : '';
  return `${counter} ${status.padEnd(5)} ${who}${scenario.id}: ${scenario.title}${detail ? ` — ${detail}` : ''}`;
}

let scenarios;
let completed = 0;

/** promptfoo `afterEach` hook: prints the finished scenario's line; changes nothing in the result. */
export async function afterEach({ test, result }) {
  scenarios ??= new Map(loadScenarios().map((scenario) => [scenario.id, scenario]));
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
