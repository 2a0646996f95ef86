import { HttpError } from '@patchbay/envelope';
import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { jiraFailures, scopeMismatch } from './fixtures/jira-responses.js';
import { createJira } from './jira-connector.js';
import { mapJiraError } from './jira-errors.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer();
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const getIssue = (snapshot = snapshotFor(jira, 'connected')) =>
  callToolAsSubject(
    jira.tools.find((tool) => tool.name === 'jira_get_issue')!,
    { issue_key: 'PROJ-7' },
    { snapshot, credentials, setupUrl: jira.setupUrl },
  );
const issueUrl = `GET ${site}/rest/api/3/issue/PROJ-7`;

describe('Jira error signals', () => {
  it('maps the gateway’s 401 "scope does not match" to permission_denied naming the tool’s scope', async () => {
    server.use({ [issueUrl]: scopeMismatch });
    await expect(getIssue()).resolves.toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['read:jira-work'],
      setup_url: jira.setupUrl,
    });
  });

  it('maps a 401 with X-Seraph-LoginReason to invalid_credentials', async () => {
    server.use({ [issueUrl]: jiraFailures.unauthorized });
    await expect(getIssue()).resolves.toMatchObject({ ok: false, error_type: 'invalid_credentials' });
  });

  it('does not trust a 200 that Jira served anonymously after refusing the login', async () => {
    server.use({
      [issueUrl]: {
        headers: { 'x-seraph-loginreason': 'AUTHENTICATED_FAILED' },
        body: { id: '1', key: 'X-1' },
      },
    });
    await expect(getIssue()).resolves.toMatchObject({ ok: false, error_type: 'invalid_credentials' });
  });

  it('maps 403 with Jira’s errorMessages to permission_denied with Jira’s sentence', async () => {
    server.use({ [issueUrl]: jiraFailures.forbidden });
    const envelope = await getIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'permission_denied' });
    expect(envelope.ok === false && envelope.user_message).toContain('You do not have permission');
  });

  it('maps 404 to not_found with Jira’s sentence', async () => {
    server.use({ [issueUrl]: jiraFailures.not_found });
    const envelope = await getIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found' });
    expect(envelope.ok === false && envelope.user_message).toContain('Issue does not exist');
  });

  it('maps 429 with Retry-After to rate_limited with that wait', async () => {
    server.use({ [issueUrl]: { status: 429, headers: { 'retry-after': '42' }, text: '' } });
    await expect(getIssue()).resolves.toMatchObject({
      ok: false,
      error_type: 'rate_limited',
      retry_after_s: 42,
      retryable: true,
    });
  });

  it('reads Jira’s ISO-time X-RateLimit-Reset when there is no Retry-After', () => {
    const error = new HttpError({
      status: 429,
      headers: { 'x-ratelimit-reset': '2026-11-21T15:02Z', 'x-ratelimit-remaining': '0' },
    });
    const normalized = mapJiraError(
      error,
      { path: '/rest/api/3/issue/PROJ-7' },
      new Date('2026-11-21T15:00:30Z'),
    );
    expect(normalized.headers.get('retry-after')).toBe('90');
  });

  it('keeps rate_limited for the conformance fixture without Retry-After', async () => {
    server.use({ [issueUrl]: jiraFailures.rate_limited });
    const envelope = await getIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'rate_limited' });
    expect(envelope.ok === false && envelope.retry_after_s).toBeGreaterThan(0);
  });

  it('leaves an unrelated error untouched', () => {
    const error = new HttpError({ status: 500, body: { errorMessages: ['boom'], errors: {} } });
    expect(
      mapJiraError(error, { path: '/rest/api/3/issue/PROJ-7', requiredScopes: ['read:jira-work'] }),
    ).toBe(error);
  });
});
