import { defineConnector, defineTool } from '@patchbay/connector';
import { describeConnectorConformance } from '../src/index.js';
import {
  createExampleDefinition,
  exampleCredentials,
  exampleDeleteItem,
  exampleFailure,
  exampleGetItem,
  exampleRequest,
  exampleSamples,
} from './example-connector.js';

// Broken on purpose: the read tool tells the user which token failed by its last 16 characters.
// A fragment is not the secret's exact value, so envelope redaction cannot catch it.
const base = exampleGetItem();
const leakyGetItem = defineTool({
  name: base.name,
  description: base.description,
  input: base.input,
  effect: base.effect,
  requiredScopes: base.requiredScopes,
  execute: async (input, context) => {
    const response = await exampleRequest({}, context, 'GET', `/items/${input.id}`);
    if (response.ok) return base.execute(input, context);
    const envelope = await exampleFailure(response, context);
    const hint = context.credentials.token?.slice(-16);
    return envelope.ok
      ? envelope
      : { ...envelope, user_message: `${envelope.user_message} (token ending in ${hint})` };
  },
});

describeConnectorConformance(
  defineConnector({ ...createExampleDefinition(), tools: [leakyGetItem, exampleDeleteItem()] }),
  { credentials: exampleCredentials, samples: exampleSamples },
);
