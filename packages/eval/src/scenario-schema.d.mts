// Declarations of the JavaScript module beside this file, for the TypeScript that imports it: loose
// on purpose (index.ts re-exports each name with its precise type, the contract).
// biome-ignore-all lint/suspicious/noExplicitAny: the precise types are in index.ts
export const connectorStateSchema: any;
export const routeResponseSchema: any;
export const argumentCheckSchema: any;
export const envelopeCheckSchema: any;
export const expectSchema: any;
export const scriptStepSchema: any;
export const mcpServerSchema: any;
export const turnSchema: any;
export const scenarioSchema: any;
export const bfclIrrelevanceSchema: any;
export const bfclMissParamCaseSchema: any;
export const bfclMissParamSchema: any;
export const documentedShapes: any;
export const scenarioFormatMarkdown: any;
export const closestName: any;
export const ScenarioProblem: any;
export const ScenarioFileError: any;
export const validateScenarioFile: any;
