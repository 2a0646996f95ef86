import { defineConnector, defineTool } from '@patchbay/connector';
import { failure } from '@patchbay/envelope';
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

// Broken on purpose: the read tool reports a rejected token as a missing item, so the user is
// never told to reconnect.
const base = exampleGetItem();
const misleadingGetItem = defineTool({
  name: base.name,
  description: base.description,
  input: base.input,
  effect: base.effect,
  requiredScopes: base.requiredScopes,
  execute: async (input, context) => {
    const response = await exampleRequest({}, context, 'GET', `/items/${input.id}`);
    if (response.status === 401) return failure('not_found', { connector: 'example' });
    if (!response.ok) return exampleFailure(response, context);
    return base.execute(input, context);
  },
});

describeConnectorConformance(
  defineConnector({ ...createExampleDefinition(), tools: [misleadingGetItem, exampleDeleteItem()] }),
  { credentials: exampleCredentials, samples: exampleSamples },
);
