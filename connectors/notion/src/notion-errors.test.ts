import { HttpError } from '@patchbay/envelope';
import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { notionError, notionFailures } from './fixtures/notion-responses.js';
import { notion } from './notion-connector.js';
import { mapNotionError } from './notion-errors.js';

const server = createTestServer();
const credentials = { token: 'ntn_test_token_0000000000000000000000' };
const search = notion.tools.find((tool) => tool.name === 'notion_search')!;

describe('Notion error signals', () => {
  it('reports the capability of the endpoint missing when Notion answers restricted_resource', async () => {
    server.use({ 'POST https://api.notion.com/v1/search': notionFailures.forbidden });
    const envelope = await callToolAsSubject(
      search,
      { query: 'roadmap' },
      { snapshot: snapshotFor(notion, 'connected'), credentials, setupUrl: notion.setupUrl },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['read_content'],
      setup_url: notion.setupUrl,
    });
  });

  it('names the call’s requiredScopes on restricted_resource and keeps status, headers and body', () => {
    const error = new HttpError({
      status: 403,
      headers: { 'x-request-id': 'r1' },
      body: notionError(403, 'restricted_resource', 'Insufficient permissions for this endpoint.'),
    });
    const mapped = mapNotionError(error, { path: '/pages', requiredScopes: ['insert_content'] });
    expect(mapped).toMatchObject({ status: 403, missingScopes: ['insert_content'], body: error.body });
    expect(mapped.headers.get('x-request-id')).toBe('r1');
  });

  it('leaves other Notion errors, foreign bodies and calls without requiredScopes untouched', () => {
    const notFound = new HttpError({ status: 404, body: notionFailures.not_found.body });
    expect(mapNotionError(notFound, { path: '/pages/x', requiredScopes: ['read_content'] })).toBe(notFound);
    const proxy = new HttpError({ status: 403, body: '<html>Forbidden</html>' });
    expect(mapNotionError(proxy, { path: '/search', requiredScopes: ['read_content'] })).toBe(proxy);
    const restricted = new HttpError({ status: 403, body: notionFailures.forbidden.body });
    expect(mapNotionError(restricted, { path: '/users/me' })).toBe(restricted);
  });
});
