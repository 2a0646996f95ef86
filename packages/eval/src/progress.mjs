// Terminal progress of a run: one line per scenario as it finishes. The direct runner prints it
// itself; under promptfoo the `afterEach` hook of promptfoo/progress.mjs does (run-eval.mjs registers it).
import { checksOfResponse } from './checks.mjs';

/**
 * One progress line: `[ n/total] PASS|FAIL|ERROR  [agent]  id: title`, and for a failure the first
 * failing check with its turn (and how many more failed).
 */
export function progressLine({ completed, total, agent, scenario, result }) {
  const counter = `[${String(completed).padStart(String(total).length)}/${total}]`;
  const run = result.response?.metadata?.run;
  const failed = run ? (checksOfResponse(scenario, result.response)?.failed ?? []) : [];
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
