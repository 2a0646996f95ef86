// @ts-check
// The eval config of this repository: our connector, our assistant's identity, our scenarios.
// `patchbay-eval run` finds this file in the working directory.
import { defineEvalConfig } from '@patchbay/eval';
import { helpdesk } from './src/helpdesk-connector.mjs';

export default defineEvalConfig({
  connectors: [helpdesk],
  // The first paragraph of the system prompt; Patchbay adds its protocol and the connector catalog.
  identity: 'You are Desk, the support assistant of Example Co. Be brief and accurate.',
  scenarios: 'scenarios',
  results: 'eval-results',
  // The model under test when neither --agent nor PATCHBAY_EVAL_MODEL names one, e.g.
  // model: 'openai:gpt-4.1-mini', or model: () => createOpenAI({ apiKey }).chat('gpt-4.1-mini').
  // Without one the offline reference agent runs (a rule-based stand-in, not a model).
});
