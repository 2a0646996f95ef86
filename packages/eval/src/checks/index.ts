// Deterministic checks over a scenario run: tools exposed and called, envelopes, setup URLs and
// connector names in the reply, disabled connectors absent. No model grades these.
export {
  type CheckedRun,
  checkScenario,
  checksOfResponse,
  type RecordedRun,
  type ResponseWithRun,
  recordRun,
} from './check-scenario.js';
export { checkTurn } from './check-turn.js';
export { type ExpectCheck, expectCheckOrder, expectChecks } from './expect-checks.js';
export { secretFinder } from './secret-finder.js';
export { memoryBlockOf, type StatusView, statusViewsOf } from './status-views.js';
export { type TurnCheck, turnChecks } from './turn-checks.js';
export type { TurnCheckContext, Verdict } from './turn-view.js';
