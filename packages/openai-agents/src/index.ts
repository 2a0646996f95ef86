export { aiSdkModel } from './ai-sdk-model.js';
export type { LanguageModelV4 } from './language-model.js';
export {
  createPatchbayAgentTools,
  type PatchbayAgentTools,
  type PatchbayAgentToolsOptions,
} from './patchbay-agent-tools.js';
