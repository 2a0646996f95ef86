export {
  type LanguageModelV4,
  type PatchbayTurnRun,
  type RunPatchbayTurnOptions,
  runPatchbayTurn,
} from './run-patchbay-turn.js';
