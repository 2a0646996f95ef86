export { type PatchbayTurnRun, type RunPatchbayTurnOptions, runPatchbayTurn } from './run-patchbay-turn.js';
