export { createPatchbayAgentGraph, type PatchbayAgentGraphOptions } from './agent-graph.js';
export {
  chatModelFromLanguageModel,
  LanguageModelChatModel,
  type LanguageModelChatModelCallOptions,
  type LanguageModelChatModelSettings,
} from './language-model-chat-model.js';
export { toLanguageModelPrompt } from './language-model-prompt.js';
export type { LanguageModelMessage, LanguageModelV4 } from './language-model-types.js';
export { PatchbayTool } from './patchbay-tool.js';
export { PatchbayToolNode } from './patchbay-tool-node.js';
export {
  createPatchbayToolkit,
  type PatchbayApprovalDecision,
  type PatchbayApprovalRequest,
  type PatchbayStep,
  type PatchbayToolArtifact,
  type PatchbayToolkit,
  type PatchbayToolkitOptions,
} from './patchbay-toolkit.js';
