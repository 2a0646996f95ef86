// The scenario file format, in one place: the zod schema of every key (the source of truth for the
// docs, see `scenarioFormatMarkdown`), the checks that need to know what is installed (connector ids,
// tool names, service responses, baselines, external data), and the mapping of each problem to the
// file, line and column it came from, with a "did you mean" suggestion. It imports nothing of the eval
// harness itself, so a package can export it as it is and hand it its own connectors.
export type { AgentDojoAttacks, BfclItem, ScenarioCatalog } from './catalog.js';
export { closestName } from './closest-name.js';
export {
  connectorStateSchema,
  routeResponseSchema,
} from './connector-state-schema.js';
export {
  type ArgumentCheck,
  argumentCheckSchema,
  type EnvelopeCheck,
  type ExpectBlock,
  envelopeCheckSchema,
  expectSchema,
} from './expect-schema.js';
export { scenarioFormatMarkdown, withScenarioFormat } from './format-markdown.js';
export { ScenarioProblem, type ScenarioProblemFields } from './scenario-problem.js';
export {
  type BfclIrrelevanceDocument,
  type BfclMissParamDocument,
  bfclIrrelevanceSchema,
  bfclMissParamCaseSchema,
  bfclMissParamSchema,
  documentedShapes,
  mcpServerSchema,
  type ScenarioDocument,
  scenarioSchema,
  type TurnDocument,
  turnSchema,
} from './scenario-schema.js';
export { type ScriptStep, scriptStepSchema } from './script-step-schema.js';
export { type ValidatedScenarioFile, validateScenarioFile } from './validate-scenario-file.js';
