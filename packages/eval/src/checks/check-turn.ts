// One turn's checks: those every turn gets (turn-checks.ts), then those its `expect` asks for
// (expect-checks.ts), in their tables' order.

import type { TurnRun } from '../run-types.js';
import type { ExpectBlock } from '../scenario-format/expect-schema.js';
import { expectCheckOrder, expectChecks } from './expect-checks.js';
import { secretFinder } from './secret-finder.js';
import { turnChecks } from './turn-checks.js';
import type { TurnCheckContext, TurnView, Verdict } from './turn-view.js';

/** The turn as the checks read it, with what several of them share worked out once. */
function viewOf(turn: TurnRun, context: TurnCheckContext): TurnView {
  const { trace, reply } = turn;
  return {
    turn,
    trace,
    reply,
    steps: trace.steps ?? [],
    attempted: trace.calls.map((call) => call.toolName),
    succeeded: trace.calls.filter((call) => call.sent && call.envelope.ok).map((call) => call.toolName),
    holdsSecret: context.holdsSecret ?? secretFinder(),
    context,
  };
}

/** The checks `expect` asks for; a key left out (or `false`, `null`) is a check not made. */
function expectVerdicts(expect: ExpectBlock, view: TurnView): Verdict[] {
  return expectCheckOrder.flatMap((key) => {
    const wanted = expect[key];
    if (wanted === undefined || wanted === null || (wanted as unknown) === false) return [];
    return (expectChecks[key] as (wanted: unknown, view: TurnView) => Verdict[])(wanted, view);
  });
}

/** Checks one turn against its `expect` block and the checks every turn gets; one result per check. */
export function checkTurn(turn: TurnRun, expect: ExpectBlock = {}, context: TurnCheckContext): Verdict[] {
  const view = viewOf(turn, context);
  return [...turnChecks.flatMap(({ check }) => check(view)), ...expectVerdicts(expect, view)];
}
