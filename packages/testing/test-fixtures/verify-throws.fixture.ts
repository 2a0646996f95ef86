import { defineConnector } from '@patchbay/connector';
import { describeConnectorConformance } from '../src/index.js';
import {
  createExampleDefinition,
  exampleCredentials,
  exampleRequest,
  exampleSamples,
} from './example-connector.js';

// Broken on purpose: verify lets a network failure escape as an exception instead of reporting
// `unreachable`. `defineConnector` now wraps verify so it cannot throw; a hand-assembled connector
// (spread after definition) still can, and the suite must catch it.
const throwingVerify = async (credentials: Record<string, string>) => {
  const response = await exampleRequest(
    {},
    { credentials, signal: new AbortController().signal },
    'GET',
    '/me',
  );
  if (response.status === 401)
    return { valid: false as const, reason: 'invalid_credentials' as const, message: 'Rejected.' };
  return { valid: true as const, scopes: ['items:read', 'items:write'] };
};

describeConnectorConformance(
  { ...defineConnector(createExampleDefinition()), verify: throwingVerify },
  {
    credentials: exampleCredentials,
    samples: exampleSamples,
  },
);
