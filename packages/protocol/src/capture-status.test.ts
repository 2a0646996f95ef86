import type { Connector, VerifyResult } from '@patchbay/connector';
import { describe, expect, it, vi } from 'vitest';
import { allConnectors, githubConnector, jiraConnector, slackConnector } from '../test/fixtures.ts';
import { captureStatus } from './capture-status.js';
import { createInMemoryStatusSource } from './in-memory-status-source.js';
import { createVerificationCache } from './verification-cache.js';

const now = new Date('2026-11-21T15:00:00.750Z');

describe('captureStatus', () => {
  it('applies the status rules in order of precedence', async () => {
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 'gh-secret' }, scopes: ['repo'] });
    source.connect('ana', 'jira', { credentials: { token: 'jira-secret' } });
    await source.markInvalidCredentials('ana', 'jira', 'The token was revoked.');
    source.connect('ana', 'slack', { credentials: { token: 'slack-secret' } });
    source.setRateLimit('ana', 'slack', '2026-11-21T15:05:00Z');
    // Disabled wins even over a valid stored connection.
    source.connect('ana', 'linear', { credentials: { token: 'linear-secret' } });
    source.disable('linear');

    const snapshot = await captureStatus({ connectors: allConnectors(), source, subject: 'ana', now });

    expect(snapshot.subject).toBe('ana');
    expect(snapshot.capturedAt).toBe('2026-11-21T15:00:00Z');
    expect(snapshot.connectors).toEqual({
      github: { id: 'github', status: 'connected', scopes: ['repo'] },
      jira: { id: 'jira', status: 'invalid_credentials', scopes: [], error: 'The token was revoked.' },
      linear: { id: 'linear', status: 'disabled_by_admin', scopes: [] },
      slack: {
        id: 'slack',
        status: 'rate_limited',
        scopes: [],
        retryAfter: expect.stringMatching(/^2026-11-21T15:05:00/),
      },
    });
    expect(JSON.stringify(snapshot)).not.toMatch(/secret/);
  });

  it('reports not_configured when nothing is stored and ignores rate limits that have passed', async () => {
    const source = createInMemoryStatusSource();
    source.connect('ana', 'slack', { credentials: { token: 't' }, scopes: ['chat:write'] });
    source.setRateLimit('ana', 'slack', '2026-11-21T14:59:00Z');
    const snapshot = await captureStatus({ connectors: allConnectors(), source, subject: 'ana', now });
    expect(snapshot.connectors.slack?.status).toBe('connected');
    expect(snapshot.connectors.github?.status).toBe('not_configured');
  });

  it('applies per-subject disabling only to that subject, and enable lifts it', async () => {
    const source = createInMemoryStatusSource();
    source.disable('github', 'ana');
    const forAna = await captureStatus({ connectors: allConnectors(), source, subject: 'ana', now });
    const forBo = await captureStatus({ connectors: allConnectors(), source, subject: 'bo', now });
    expect(forAna.connectors.github?.status).toBe('disabled_by_admin');
    expect(forBo.connectors.github?.status).toBe('not_configured');
    source.enable('github', 'ana');
    const after = await captureStatus({ connectors: allConnectors(), source, subject: 'ana', now });
    expect(after.connectors.github?.status).toBe('not_configured');
  });

  it('reports connector ids the source knows but no installed connector declares', async () => {
    const source = createInMemoryStatusSource({
      connections: { ana: [{ connectorId: 'zendesk', credentials: { token: 'z' }, scopes: [] }] },
      rateLimitedUntil: { ana: { asana: '2026-11-21T16:00:00Z' } },
    });
    const snapshot = await captureStatus({ connectors: allConnectors(), source, subject: 'ana', now });
    expect(snapshot.unknownConnectorIds).toEqual(['asana', 'zendesk']);
    expect(Object.keys(snapshot.connectors).sort()).toEqual(['github', 'jira', 'linear', 'slack']);
  });

  it('disconnect returns a connector to not_configured', async () => {
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 't' } });
    source.disconnect('ana', 'github');
    const snapshot = await captureStatus({ connectors: allConnectors(), source, subject: 'ana', now });
    expect(snapshot.connectors.github?.status).toBe('not_configured');
  });
});

describe('captureStatus with live verification', () => {
  const validResult: VerifyResult = { valid: true, scopes: ['repo', 'issues:write'] };

  it('verifies once across two captures inside the TTL and again after it, by an injected clock', async () => {
    const verify = vi.fn(async () => validResult);
    const connectors: Connector[] = [githubConnector(verify)];
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 'gh-secret' }, scopes: ['repo'] });
    const cache = createVerificationCache();
    let clock = new Date('2026-11-21T15:00:00Z');
    const capture = () =>
      captureStatus({
        connectors,
        source,
        subject: 'ana',
        now: () => clock,
        verify: { ttlMs: 60_000, cache },
      });

    const first = await capture();
    clock = new Date('2026-11-21T15:00:59Z');
    const second = await capture();
    expect(verify).toHaveBeenCalledTimes(1);
    // A cached result keeps the time it was actually verified.
    expect(second.connectors.github?.verifiedAt).toBe('2026-11-21T15:00:00Z');
    expect(first.connectors.github).toMatchObject({ status: 'connected', scopes: ['repo', 'issues:write'] });
    expect(first.connectors.github?.verifiedAt).toBe('2026-11-21T15:00:00Z');

    clock = new Date('2026-11-21T15:01:00Z');
    const third = await capture();
    expect(verify).toHaveBeenCalledTimes(2);
    expect(third.connectors.github?.verifiedAt).toBe('2026-11-21T15:01:00Z');
    expect(verify).toHaveBeenCalledWith({ token: 'gh-secret' }, undefined);
  });

  it('shares one in-flight verification between concurrent captures', async () => {
    let release!: (result: VerifyResult) => void;
    const verify = vi.fn(() => new Promise<VerifyResult>((resolve) => (release = resolve)));
    const connectors = [githubConnector(verify)];
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 't' } });
    const options = {
      connectors,
      source,
      subject: 'ana',
      now,
      verify: { ttlMs: 1000, cache: createVerificationCache() },
    };
    const both = Promise.all([captureStatus(options), captureStatus(options)]);
    await vi.waitFor(() => expect(verify).toHaveBeenCalled());
    release(validResult);
    const [a, b] = await both;
    expect(verify).toHaveBeenCalledTimes(1);
    expect(a.connectors.github).toEqual(b.connectors.github);
  });

  it('verifies again when the credentials change, and per subject', async () => {
    const verify = vi.fn(async () => validResult);
    const connectors = [githubConnector(verify)];
    const source = createInMemoryStatusSource();
    const cache = createVerificationCache();
    const capture = (subject: string) =>
      captureStatus({ connectors, source, subject, now, verify: { ttlMs: 60_000, cache } });
    source.connect('ana', 'github', { credentials: { token: 'one' } });
    source.connect('bo', 'github', { credentials: { token: 'one' } });
    await capture('ana');
    await capture('bo');
    expect(verify).toHaveBeenCalledTimes(2);
    source.connect('ana', 'github', { credentials: { token: 'two' } });
    await capture('ana');
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('marks failed verification as invalid_credentials and writes it back to the source', async () => {
    const verify = vi.fn(
      async (): Promise<VerifyResult> => ({
        valid: false,
        reason: 'invalid_credentials',
        message: 'Bad credentials.',
      }),
    );
    const connectors = [githubConnector(verify), slackConnector()];
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 'gh-secret' } });
    const markInvalid = vi.spyOn(source, 'markInvalidCredentials');
    const snapshot = await captureStatus({
      connectors,
      source,
      subject: 'ana',
      now,
      verify: { ttlMs: 60_000, cache: createVerificationCache() },
    });
    expect(snapshot.connectors.github).toMatchObject({
      status: 'invalid_credentials',
      error: 'Bad credentials.',
    });
    expect(markInvalid).toHaveBeenCalledWith('ana', 'github', 'Bad credentials.');
    // Later captures read it from the source, without verifying again.
    const later = await captureStatus({ connectors, source, subject: 'ana', now });
    expect(later.connectors.github?.status).toBe('invalid_credentials');
  });

  it('keeps the stored status when the service cannot be reached', async () => {
    const verify = vi.fn(
      async (): Promise<VerifyResult> => ({ valid: false, reason: 'unreachable', message: 'down' }),
    );
    const source = createInMemoryStatusSource();
    source.connect('ana', 'jira', { credentials: { token: 't' }, scopes: [] });
    const snapshot = await captureStatus({
      connectors: [jiraConnector(verify)],
      source,
      subject: 'ana',
      now,
      verify: { ttlMs: 1000, cache: createVerificationCache() },
    });
    expect(snapshot.connectors.jira?.status).toBe('connected');
  });

  it('keeps the stored status when verify outlives timeoutMs, even if it ignores its signal', async () => {
    const verify = vi.fn(
      (_credentials: unknown, _options?: { signal?: AbortSignal }) => new Promise<VerifyResult>(() => {}),
    );
    const source = createInMemoryStatusSource();
    source.connect('ana', 'jira', { credentials: { token: 't' } });
    const snapshot = await captureStatus({
      connectors: [jiraConnector(verify)],
      source,
      subject: 'ana',
      now,
      verify: { ttlMs: 1000, timeoutMs: 5, cache: createVerificationCache() },
    });
    expect(snapshot.connectors.jira?.status).toBe('connected');
    expect(verify.mock.calls[0]?.[1]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('records a rate limit reported by verify', async () => {
    const verify = vi.fn(
      async (): Promise<VerifyResult> => ({
        valid: false,
        reason: 'rate_limited',
        message: 'slow down',
        retryAfterS: 30,
      }),
    );
    const source = createInMemoryStatusSource();
    source.connect('ana', 'jira', { credentials: { token: 't' } });
    const snapshot = await captureStatus({
      connectors: [jiraConnector(verify)],
      source,
      subject: 'ana',
      now,
      verify: { ttlMs: 1000, cache: createVerificationCache() },
    });
    expect(snapshot.connectors.jira).toMatchObject({
      status: 'rate_limited',
      retryAfter: '2026-11-21T15:00:30.750Z',
    });
    expect((await source.load('ana')).rateLimitedUntil.jira).toBe('2026-11-21T15:00:30.750Z');
  });

  it('does not verify connectors that are disabled, rate limited or not connected', async () => {
    const verify = vi.fn(async () => validResult);
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 't' } });
    source.disable('github');
    await captureStatus({
      connectors: [githubConnector(verify), slackConnector(verify)],
      source,
      subject: 'ana',
      now,
      verify: { ttlMs: 1000, cache: createVerificationCache() },
    });
    expect(verify).not.toHaveBeenCalled();
  });
});

describe('createVerificationCache', () => {
  it('hits for the same credentials inside the TTL and clears per subject', async () => {
    const cache = createVerificationCache();
    const run = vi.fn(async (): Promise<VerifyResult> => ({ valid: true, scopes: [] }));
    await cache.get(
      { subject: 's', connectorId: 'github', credentials: { token: 'very-secret-token' } },
      { now: 0, ttlMs: 10 },
      run,
    );
    expect(cache.size).toBe(1);
    await cache.get(
      { subject: 's', connectorId: 'github', credentials: { token: 'very-secret-token' } },
      { now: 5, ttlMs: 10 },
      run,
    );
    expect(run).toHaveBeenCalledTimes(1);
    cache.clear('s');
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entries beyond maxEntries', async () => {
    const cache = createVerificationCache({ maxEntries: 2 });
    const run = async (): Promise<VerifyResult> => ({ valid: true, scopes: [] });
    for (const token of ['a', 'b', 'c']) {
      await cache.get({ subject: 's', connectorId: 'x', credentials: { token } }, { now: 0, ttlMs: 10 }, run);
    }
    expect(cache.size).toBe(2);
  });
});
