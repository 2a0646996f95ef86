import type { SacpReply } from '../reply.js';
import type { CompiledEdge } from './compile.js';

/** Where a reply goes: the first edge that matches (none ends the run), and conditions that failed on the way. */
export interface Route {
  edge?: CompiledEdge | undefined;
  /** One line per condition that could not be evaluated, `edge <index> (<when>): <error>`; such an edge is not taken. */
  conditionErrors: string[];
}

/** How far the run is, for conditions that read `visits` and `step`. */
export interface RoutePosition {
  /** Times the node has run in this run, counting this one. */
  visits: number;
  step: number;
}

/**
 * Tries the edges leaving `nodeId` in definition order and returns the first whose status filter and
 * condition both hold. A condition that fails at run time counts as not matching and is reported.
 */
export function chooseEdge(
  edges: readonly CompiledEdge[],
  nodeId: string,
  reply: SacpReply,
  position: RoutePosition,
): Route {
  const conditionErrors: string[] = [];
  const scope = {
    status: reply.status,
    data: reply.data,
    message: reply.message,
    thought: reply.thought,
    next_step_hint: reply.next_step_hint,
    visits: position.visits,
    step: position.step,
  };
  const edge = edges.find((candidate) => {
    if (candidate.from !== nodeId) return false;
    if (candidate.statuses && !candidate.statuses.has(reply.status)) return false;
    if (!candidate.condition) return true;
    const result = candidate.condition(scope);
    if (result.error) conditionErrors.push(`edge ${candidate.index} (${candidate.when}): ${result.error}`);
    return result.matched;
  });
  return { edge, conditionErrors };
}
