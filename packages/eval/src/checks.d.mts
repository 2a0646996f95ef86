// Declarations of the JavaScript module beside this file, for the TypeScript that imports it: loose
// on purpose (index.ts re-exports each name with its precise type, the contract).
// biome-ignore-all lint/suspicious/noExplicitAny: the precise types are in index.ts
export const statusViewsOf: any;
export const memoryBlockOf: any;
export const checkTurn: any;
export const checkScenario: any;
export const secretFinder: any;
export const recordRun: any;
export const checksOfResponse: any;
