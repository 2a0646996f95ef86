import { callConnectorTool, callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { issue, jsonHeaders } from './fixtures/jira-responses.js';
import { createJira, jira as unconfigured } from './jira-connector.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer({
  [`GET ${site}/rest/api/3/issue/:key`]: { headers: jsonHeaders, body: issue },
});
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const connected = snapshotFor(jira, 'connected');
const call = (name: string, input: unknown, connector = jira) =>
  callConnectorTool(connector, name, input, { credentials });

describe('site and base URL', () => {
  it('lets baseUrl pin calls to the API gateway, where issues have no browse link', async () => {
    const gateway = 'https://api.atlassian.com/ex/jira/11223344-a1b2-3b33-c444-def123456789';
    server.use({ [`GET ${gateway}/rest/api/3/issue/:key`]: { body: issue } });
    const pinned = createJira({ baseUrl: `${gateway}/` });
    const envelope = await call('jira_get_issue', { issue_key: 'PROJ-7' }, pinned);
    expect(envelope).toMatchObject({ ok: true, data: { key: 'PROJ-7' } });
    expect(envelope.ok && envelope.data).not.toHaveProperty('url');
    expect(server.calls[0]?.url.startsWith(`${gateway}/rest/api/3/issue/PROJ-7`)).toBe(true);
  });

  it('uses a custom fetch and extra headers', async () => {
    const seen: string[] = [];
    const custom = createJira({
      baseUrl: site,
      headers: { 'x-trace': 'abc' },
      fetch: (url, init) => {
        seen.push(String(url));
        return globalThis.fetch(url, init);
      },
    });
    await call('jira_get_issue', { issue_key: 'PROJ-7' }, custom);
    expect(seen).toHaveLength(1);
    expect(server.calls[0]?.headers['x-trace']).toBe('abc');
  });

  it('refuses a plain-http site at creation: the token would travel in clear text', () => {
    expect(() => createJira({ baseUrl: 'http://acme.atlassian.net' })).toThrow(/https/);
    expect(() => createJira({ baseUrl: 'acme' })).toThrow(/site address/);
    expect(createJira({ baseUrl: 'http://localhost:8080' }).id).toBe('jira');
  });

  it('answers connector_not_configured without a site, and sends nothing', async () => {
    const envelope = await call('jira_get_issue', { issue_key: 'PROJ-7' }, unconfigured);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      connector: 'jira',
      setup_url: unconfigured.setupUrl,
    });
    expect(envelope.ok === false && envelope.user_message).toContain('baseUrl');
    expect(server.calls).toHaveLength(0);
  });

  it('reports a connection without an email as invalid credentials, without a request', async () => {
    const envelope = await callToolAsSubject(
      jira.tools.find((tool) => tool.name === 'jira_get_issue')!,
      { issue_key: 'PROJ-7' },
      { snapshot: connected, credentials: { api_token: 'ATATT3xFfGF0-test-token' }, setupUrl: jira.setupUrl },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_credentials',
      setup_url: jira.setupUrl,
    });
    expect(server.calls).toHaveLength(0);
  });
});
