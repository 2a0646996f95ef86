// Internals for the harness's own tests and the Patchbay repository's evals: not part of the API,
// they change without notice.
export { createAdvertiseEverything, createRetrySameCall, createStaleStatus } from './agents/baselines.mjs';
export { capabilityReply, readPrompt, referenceStep } from './agents/reference-agent.mjs';
export { checkTurn, memoryBlockOf, statusViewsOf } from './checks.mjs';
export { readScenarioFiles } from './load-scenarios.mjs';
export { agentTotals, firstFailedCheck } from './matrix.mjs';
export { chromiumPath, renderPng } from './matrix-png.mjs';
export { fixReportLayout, userMessagesOf } from './report.mjs';
export { evalSecretPattern, evalSubject } from './run-scenario.mjs';
export {
  argumentCheckSchema,
  documentedShapes,
  envelopeCheckSchema,
  expectSchema,
  scenarioSchema,
  turnSchema,
} from './scenario-schema.mjs';
