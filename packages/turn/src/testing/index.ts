export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedStep,
  type ScriptedToolCall,
} from './scripted-model.js';
