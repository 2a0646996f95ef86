// Internals for the harness's own tests and the Patchbay repository's evals: not part of the API,
// they change without notice.
export { createAdvertiseEverything, createRetrySameCall, createStaleStatus } from './agents/baselines.js';
export {
  capabilityReply,
  type PromptView,
  type ReferenceRules,
  readPrompt,
  referenceStep,
  type StepAnswer,
} from './agents/reference-agent.js';
export {
  checkTurn,
  expectCheckOrder,
  expectChecks,
  memoryBlockOf,
  statusViewsOf,
  turnChecks,
} from './checks/index.js';
export { readScenarioFiles } from './load-scenarios.js';
export { agentTotals, firstFailedCheck } from './matrix.js';
export { chromiumPath, renderPng } from './matrix-png.js';
export { fixReportLayout, userMessagesOf } from './report.js';
export { evalSecretPattern, evalSubject } from './run-scenario.js';
export {
  argumentCheckSchema,
  documentedShapes,
  envelopeCheckSchema,
  expectSchema,
  scenarioSchema,
  turnSchema,
} from './scenario-format/index.js';
