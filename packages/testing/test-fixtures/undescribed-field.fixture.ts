import { defineConnector } from '@patchbay/connector';
import { describeConnectorConformance } from '../src/index.js';
import {
  createExampleDefinition,
  exampleCredentials,
  exampleDeleteItem,
  exampleGetItem,
  exampleSamples,
} from './example-connector.js';

// Broken on purpose: a tool whose published JSON Schema lost the field description (as a
// hand-written schema or a tool built without defineTool would), so the model gets no docs for `id`.
const base = exampleGetItem();
const undocumentedGetItem = Object.freeze({
  ...base,
  inputJsonSchema: { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'] },
});

describeConnectorConformance(
  defineConnector({ ...createExampleDefinition(), tools: [undocumentedGetItem, exampleDeleteItem()] }),
  { credentials: exampleCredentials, samples: exampleSamples },
);
