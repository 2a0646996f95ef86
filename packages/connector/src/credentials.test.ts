import { success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authSchema, credentialFieldSchema } from './credentials.js';
import { defineConnector } from './define-connector.js';
import { defineTool } from './define-tool.js';

describe('credentialFieldSchema', () => {
  it('makes a field required unless it says optional', () => {
    const field = credentialFieldSchema.parse({ name: 'token', description: 'Access token' });
    expect(field).toEqual({ name: 'token', description: 'Access token', secret: true });
    expect(field.optional ?? false).toBe(false);
  });

  it('keeps optional: true, for fields connecting works without', () => {
    const field = credentialFieldSchema.parse({
      name: 'region',
      description: 'Data region',
      secret: false,
      env: 'ACME_REGION',
      optional: true,
    });
    expect(field).toMatchObject({ name: 'region', secret: false, env: 'ACME_REGION', optional: true });
  });

  it('refuses an optional flag that is not a boolean', () => {
    const parsed = credentialFieldSchema.safeParse({
      name: 'region',
      description: 'Region',
      optional: 'yes',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['optional']);
  });

  it('leaves declarations written before the flag existed as they were, every field required', () => {
    const auth = authSchema.parse({
      kind: 'basic',
      fields: [
        { name: 'account_sid', description: 'Account SID', secret: false },
        { name: 'auth_token', description: 'Auth token' },
      ],
    });
    expect(auth.fields).toEqual([
      { name: 'account_sid', description: 'Account SID', secret: false },
      { name: 'auth_token', description: 'Auth token', secret: true },
    ]);
    expect(authSchema.parse({ kind: 'bearer' }).fields).toEqual([
      { name: 'token', description: 'Access token', secret: true },
    ]);
  });

  it('reaches the defined connector, where the CLI reads it', () => {
    const connector = defineConnector({
      id: 'acme',
      name: 'Acme',
      description: 'A fictional service.',
      auth: {
        kind: 'api_key',
        fields: [
          { name: 'api_key', description: 'API key' },
          { name: 'region', description: 'Data region', secret: false, optional: true },
        ],
      },
      capabilities: ['nothing'],
      wouldEnable: ['Look things up in Acme'],
      setupUrl: 'https://acme.test/keys',
      tools: [
        defineTool({
          name: 'acme_ping',
          description: 'Checks that Acme answers.',
          input: z.object({}),
          effect: 'read',
          execute: async () => success('pong'),
        }),
      ],
      verify: async () => ({ valid: true, scopes: [] }),
    });
    // Connector['auth']['fields'] does not declare `optional` yet; the value is there at run time.
    const fields = connector.auth.fields as { name: string; optional?: boolean }[];
    expect(fields.map((field) => [field.name, field.optional ?? false])).toEqual([
      ['api_key', false],
      ['region', true],
    ]);
  });
});
