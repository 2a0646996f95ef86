/**
 * Helpers the other Patchbay packages share with the turn loop (`@patchbay/sacp` phrases a paused
 * chain's questions the way a turn does; `@patchbay/store` checks stored threads against the prompt a
 * model is sent). Unstable: no semver promise, may change in any release. Applications use the
 * package root.
 */
export { toLanguageModelPrompt } from './model-prompt.js';
export { withQuestions } from './retry-guidance.js';
