import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { botUser, notionFailures } from './fixtures/notion-responses.js';
import { createNotion, notion } from './notion-connector.js';

const server = createTestServer({ 'GET https://api.notion.com/v1/users/me': { body: botUser() } });
const credentials = { token: 'ntn_test_token_0000000000000000000000' };

describe('notion verify', () => {
  it('checks the token with GET /v1/users/me and names the bot and workspace', async () => {
    await expect(notion.verify(credentials)).resolves.toEqual({
      valid: true,
      scopes: ['read_content', 'update_content', 'insert_content'],
      identity: 'Patchbay (Acme)',
    });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.headers.authorization).toBe(`Bearer ${credentials.token}`);
    expect(server.calls[0]!.headers['notion-version']).toBe('2025-09-03');
  });

  it('reports only the capabilities the integration was given, and its tools then stay gated', async () => {
    const readOnly = createNotion({ capabilities: ['read_content'] });
    const result = await readOnly.verify(credentials);
    expect(result).toMatchObject({ valid: true, scopes: ['read_content'] });
    const scopes = result.valid ? result.scopes : [];
    const createPage = readOnly.tools.find((tool) => tool.name === 'notion_create_page')!;
    server.reset();
    const envelope = await callToolAsSubject(
      createPage,
      { parent_id: '13d6da822f9343fa8ec14c89778e7136', title: 'Nope' },
      { snapshot: snapshotFor(readOnly, 'connected', { scopes }), credentials },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['insert_content'],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('reports a revoked token (401 unauthorized) as invalid_credentials', async () => {
    server.use({ 'GET https://api.notion.com/v1/users/me': notionFailures.unauthorized });
    await expect(notion.verify(credentials)).resolves.toEqual({
      valid: false,
      reason: 'invalid_credentials',
      message: 'The service rejected these credentials.',
    });
  });

  it('reports rate limiting with the wait Notion asks for', async () => {
    server.use({ 'GET https://api.notion.com/v1/users/me': notionFailures.rate_limited });
    await expect(notion.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'rate_limited',
      retryAfterS: 30,
    });
  });

  it('reports a Notion outage as unreachable', async () => {
    server.use({ 'GET https://api.notion.com/v1/users/me': notionFailures.server_error });
    await expect(notion.verify(credentials)).resolves.toMatchObject({ valid: false, reason: 'unreachable' });
  });
});
