import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { __id__, create__Name__ } from '../__ID__-connector.js';
import { item, testCredentials } from '../fixtures/__ID__-responses.js';

const server = createTestServer({ 'GET https://api.__ID__.example/items/:id': item });

describe('__ID___get_item', () => {
  it('gets the item with the token as a bearer header', async () => {
    const envelope = await callConnectorTool(
      __id__,
      '__ID___get_item',
      { id: 'item-1' },
      {
        credentials: testCredentials,
      },
    );
    expect(envelope).toMatchObject({ ok: true, data: { id: 'item-1', title: 'First', state: 'open' } });
    expect(server.calls[0]).toMatchObject({ method: 'GET', url: 'https://api.__ID__.example/items/item-1' });
    expect(server.calls[0]?.headers.authorization).toBe(`Bearer ${testCredentials.token}`);
  });

  it('asks which item when the id is missing, without a request', async () => {
    const envelope = await callConnectorTool(__id__, '__ID___get_item', {}, { credentials: testCredentials });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'id', question: 'Which __NAME__ item do you mean?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('honours baseUrl', async () => {
    server.use({
      'GET https://proxy.test/api/items/:id': { body: { id: 'x', title: 'Proxied', state: 'open' } },
    });
    const proxied = create__Name__({ baseUrl: 'https://proxy.test/api/' });
    const envelope = await callConnectorTool(
      proxied,
      '__ID___get_item',
      { id: 'x' },
      {
        credentials: testCredentials,
      },
    );
    expect(envelope).toMatchObject({ ok: true, data: { title: 'Proxied' } });
  });
});
