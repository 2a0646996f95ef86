import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { __id__ } from '../__ID__-connector.js';
import { createdItem, testCredentials } from '../fixtures/__ID__-responses.js';

const server = createTestServer({ 'POST https://api.__ID__.example/items': createdItem });

describe('__ID___create_item', () => {
  it('creates the item with a JSON body', async () => {
    const envelope = await callConnectorTool(
      __id__,
      '__ID___create_item',
      { title: 'New' },
      {
        credentials: testCredentials,
      },
    );
    expect(envelope).toMatchObject({
      ok: true,
      data: { id: 'item-2', url: 'https://__ID__.example/items/2' },
    });
    expect(server.calls[0]).toMatchObject({ method: 'POST', body: { title: 'New' } });
  });

  it('asks the user when the title is missing, without a request', async () => {
    const envelope = await callConnectorTool(
      __id__,
      '__ID___create_item',
      {},
      { credentials: testCredentials },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'title', question: 'What should the item be called?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});
