import { HttpError } from '@patchbay/envelope';
import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { __id__ } from './__ID__-connector.js';
import { map__Name__Error } from './__ID__-errors.js';
import { insufficientScope, testCredentials } from './fixtures/__ID__-responses.js';

const server = createTestServer();

describe('__NAME__ error signals', () => {
  it('names the scope the call needs when __NAME__ refuses it with insufficient_scope', async () => {
    server.use({ 'POST https://api.__ID__.example/items': insufficientScope });
    const envelope = await callConnectorTool(
      __id__,
      '__ID___create_item',
      { title: 'New' },
      {
        credentials: testCredentials,
      },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['items:write'],
    });
  });

  it('leaves other failures to the generic HTTP mapping', () => {
    const notFound = new HttpError({ status: 404, body: { error: 'not_found' } });
    expect(map__Name__Error(notFound, { path: '/items/x', requiredScopes: ['items:read'] })).toBe(notFound);
  });
});
