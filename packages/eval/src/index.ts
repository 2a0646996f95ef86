// The public API of @patchbay/eval: the config, the scenario format and its validator, the runner and
// its checks, the reports, the reference agent, the baselines and adversaries, and the command.
export { adversaries } from './agents/adversaries.js';
export { baselines } from './agents/baselines.js';
export { agentFor, describeAgent, modelFromSpec } from './agents/model-from-env.js';
export { createReferenceAgent } from './agents/reference-agent.js';
export {
  type CheckedRun,
  checkScenario,
  type RecordedRun,
  type ResponseWithRun,
} from './checks/index.js';
export { type CommandOutput, runCommand, usage } from './command.js';
export {
  type ConnectorContext,
  configFileNames,
  defaultIdentity,
  defineEvalConfig,
  type EvalCallers,
  type EvalConfig,
  type EvalData,
  type EvalMcp,
  type EvalMemory,
  type EvalMemorySession,
  type EvalService,
  type EvalServiceSession,
  type EvalStore,
  type EvalStoreHandle,
  evalConfigProblems,
  loadEvalConfig,
  type ResolvedEvalConfig,
  resolveEvalConfig,
  type ServiceRequest,
  type SystemPromptInput,
  type ToolRun,
  type ToolRunLog,
  type TurnRunner,
} from './config.js';
export { evalCredentials, minSecretLength } from './credentials.js';
export { EvalConfigError, type EvalErrorCode, ScenarioFileError } from './eval-errors.js';
export { catalogOf, loadScenarios } from './load-scenarios.js';
export {
  buildMatrix,
  type Matrix,
  type MatrixAgent,
  type MatrixCell,
  type MatrixScenario,
  renderMatrixHtml,
} from './matrix.js';
export { type ProgressInput, type ProgressResult, progressLine } from './progress.js';
export { failureLines, transcriptOf } from './report.js';
export { type RunEvalOptions, runEval } from './run-eval.js';
export { runScenario } from './run-scenario.js';
export type {
  CheckResult,
  RefusedRequest,
  RunCall,
  RunEnvelope,
  RunTrace,
  Scenario,
  ScenarioCheck,
  ScenarioConnectorState,
  ScenarioRun,
  ScenarioTurn,
  TurnRun,
} from './run-types.js';
export {
  type AgentDojoAttacks,
  type ArgumentCheck,
  type BfclItem,
  closestName,
  type EnvelopeCheck,
  type ExpectBlock,
  type ScenarioCatalog,
  ScenarioProblem,
  type ScenarioProblemFields,
  type ScriptStep,
  scenarioFormatMarkdown,
  type ValidatedScenarioFile,
  validateScenarioFile,
  withScenarioFormat,
} from './scenario-format/index.js';
export { type WrittenMatrix, writeMatrix } from './write-matrix.js';
