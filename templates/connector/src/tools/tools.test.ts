import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { __id__, create__Name__ } from '../__ID__-connector.js';

const server = createTestServer({
  'GET https://api.__ID__.example/items/:id': { body: { id: 'item-1', title: 'First', state: 'open' } },
  'POST https://api.__ID__.example/items': {
    status: 201,
    body: { id: 'item-2', url: 'https://__ID__.example/items/2' },
  },
  'GET https://api.__ID__.example/me': { headers: { 'x-scopes': 'items:read' }, body: { name: 'Ada' } },
});
const credentials = { token: 'test-token-0000000000' };
const tool = (name: string) => __id__.tools.find((candidate) => candidate.name === name)!;
const connected = snapshotFor(__id__, 'connected');

describe('__NAME__ tools', () => {
  it('gets an item', async () => {
    const envelope = await callToolAsSubject(
      tool('__ID___get_item'),
      { id: 'item-1' },
      { snapshot: connected, credentials },
    );
    expect(envelope).toMatchObject({ ok: true, data: { id: 'item-1', title: 'First', state: 'open' } });
    expect(server.calls[0]?.headers.authorization).toBe('Bearer test-token-0000000000');
  });

  it('creates an item with a JSON body', async () => {
    const envelope = await callToolAsSubject(
      tool('__ID___create_item'),
      { title: 'New' },
      { snapshot: connected, credentials },
    );
    expect(envelope).toMatchObject({ ok: true, data: { id: 'item-2' } });
    expect(server.calls[0]?.body).toEqual({ title: 'New' });
  });

  it('asks the user when the title is missing, without a request', async () => {
    const envelope = await callToolAsSubject(
      tool('__ID___create_item'),
      {},
      { snapshot: connected, credentials },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'title', question: 'What should the item be called?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('honours baseUrl', async () => {
    server.use({
      'GET https://proxy.test/api/items/:id': { body: { id: 'x', title: 'Proxied', state: 'open' } },
    });
    const proxied = create__Name__({ baseUrl: 'https://proxy.test/api/' });
    const getItem = proxied.tools.find((candidate) => candidate.name === '__ID___get_item')!;
    const envelope = await callToolAsSubject(
      getItem,
      { id: 'x' },
      { snapshot: snapshotFor(proxied, 'connected'), credentials },
    );
    expect(envelope).toMatchObject({ ok: true, data: { title: 'Proxied' } });
  });

  it('verifies credentials and reports granted scopes', async () => {
    await expect(__id__.verify(credentials)).resolves.toEqual({
      valid: true,
      scopes: ['items:read'],
      identity: 'Ada',
    });
  });

  it('reports revoked credentials', async () => {
    server.use({ 'GET https://api.__ID__.example/me': { status: 401, body: { message: 'revoked' } } });
    await expect(__id__.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });
});
