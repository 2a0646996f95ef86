// Terminal progress of a run: one line per scenario as it finishes. The direct runner prints it
// itself; under promptfoo the `afterEach` hook of promptfoo/progress.ts does (run-eval.ts registers it).
import { checksOfResponse, type ResponseWithRun } from './checks/index.js';
import type { Scenario } from './run-types.js';

/** A result row as progress reads it: promptfoo's, or the direct engine's of the same shape. */
export interface ProgressResult {
  success?: boolean;
  error?: unknown;
  response?: (ResponseWithRun & { error?: unknown }) | undefined;
  gradingResult?: { reason?: unknown } | undefined;
}

/** What {@link progressLine} prints about one finished scenario. */
export interface ProgressInput {
  completed: number;
  total: number;
  /** The agent's name, when the run has several. */
  agent?: string | undefined;
  scenario: Pick<Scenario, 'id' | 'title' | 'turns'>;
  result: ProgressResult;
}

/**
 * One progress line: `[ n/total] PASS|FAIL|ERROR  [agent]  id: title`, and for a failure the first
 * failing check with its turn (and how many more failed).
 */
export function progressLine({ completed, total, agent, scenario, result }: ProgressInput): string {
  const counter = `[${String(completed).padStart(String(total).length)}/${total}]`;
  const run = result.response?.metadata?.run;
  const failed = run ? (checksOfResponse(scenario as Scenario, result.response)?.failed ?? []) : [];
  const firstLine = (text: unknown) => String(text).split('\n')[0]!;
  let status = 'PASS';
  let detail = '';
  if (!run) {
    status = 'ERROR';
    detail = firstLine(result.error ?? result.response?.error ?? 'no run');
  } else if (failed.length > 0) {
    status = 'FAIL';
    detail = `turn ${failed[0]!.turn}: ${failed[0]!.name}${failed.length > 1 ? ` (+${failed.length - 1} more)` : ''}`;
  } else if (!result.success) {
    // The deterministic checks passed; a model-graded rubric did not.
    status = 'FAIL';
    detail = firstLine(result.gradingResult?.reason ?? result.error ?? 'failed');
  }
  const who = agent ? `${agent}  ` : '';
  return `${counter} ${status.padEnd(5)} ${who}${scenario.id}: ${scenario.title}${detail ? ` — ${detail}` : ''}`;
}
