// Test stand-in connector with optional credential fields, for `patchbay connect`: an API key is
// required, a data region (with a conventional variable) and a workspace (without one) are optional.
// `verify` never touches the network; it reports which optional values it was given as the identity.
import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';

export const regional = defineConnector({
  id: 'regional',
  name: 'Regional Service',
  description: 'A fictional service with optional credential fields, used by the CLI tests.',
  auth: {
    kind: 'api_key',
    scopes: [{ name: 'data:read', description: 'Read data' }],
    fields: [
      { name: 'api_key', description: 'API key', secret: true, env: 'REGIONAL_API_KEY' },
      { name: 'region', description: 'Data region', secret: false, env: 'REGIONAL_REGION', optional: true },
      { name: 'workspace', description: 'Workspace id', secret: false, optional: true },
    ],
  },
  capabilities: ['read data'],
  wouldEnable: ['Read regional data from chat'],
  setupUrl: 'https://regional.example/keys',
  tools: [
    defineTool({
      name: 'regional_ping',
      description: 'Answers pong.',
      input: z.object({}),
      effect: 'read',
      requiredScopes: ['data:read'],
      execute: async () => success('pong'),
    }),
  ],
  async verify(credentials) {
    if (!credentials.api_key) return { valid: false, reason: 'invalid_credentials', message: 'No key.' };
    return {
      valid: true,
      scopes: ['data:read'],
      identity: `region ${credentials.region ?? 'none'}, workspace ${credentials.workspace ?? 'none'}`,
    };
  },
});

/** The declaration the CLI discovers this module by; the connector takes no settings. */
export const connectorFactory = () => regional;
