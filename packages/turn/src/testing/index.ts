export type { FrameworkTurnOptions, FrameworkTurnRun } from './framework-turn.js';
export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedStep,
  type ScriptedToolCall,
} from './scripted-model.js';
