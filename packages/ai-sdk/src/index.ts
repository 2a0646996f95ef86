export {
  createPatchbay,
  type Patchbay,
  type PatchbayOptions,
  type PatchbaySettings,
  type PatchbayTurn,
  type PatchbayTurnOptions,
} from './create-patchbay.js';
