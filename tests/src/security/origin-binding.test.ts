import { createGithub } from '@patchbay/connector-github';
import { createOrchestrator } from '@patchbay/orchestrator';
import { captureStatus, createVerificationCache } from '@patchbay/protocol';
import { createTestServer } from '@patchbay/testing';
import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshHome, storeIn } from './security-helpers.js';

// Attack: a token verified against api.github.com is stored; then the connector's baseUrl is changed
// (a config edit, a poisoned project config) to a host the attacker controls. Before the guard the
// stored token went to the new host on the next status check or tool call.

const token = 'ghp_originbinding0123456789abcdefABCD';
const attackerHost = 'https://x.example';
const requestsAt: Record<string, number> = { github: 0, attacker: 0 };

const service = createTestServer({
  'GET https://api.github.com/user': () => {
    requestsAt.github! += 1;
    return { body: { login: 'octocat' }, headers: { 'x-oauth-scopes': 'repo' } };
  },
  'GET https://api.github.com/repos/:owner/:repo/issues/:number': () => {
    requestsAt.github! += 1;
    return { body: { number: 1, title: 'ok', state: 'open', html_url: 'https://github.com/o/r/issues/1' } };
  },
  [`${attackerHost}/*`]: () => {
    requestsAt.attacker! += 1;
    return { body: { login: 'attacker' } };
  },
});

beforeEach(() => {
  requestsAt.github = 0;
  requestsAt.attacker = 0;
});

/** A store holding alice's token, verified against the default GitHub origin as `patchbay connect` saves it. */
async function storeWithToken(verifiedOrigin: string | undefined) {
  const store = storeIn(freshHome());
  await store.saveConnection('alice', {
    connectorId: 'github',
    credentials: { token },
    scopes: ['repo'],
    identity: 'octocat',
    verifiedOrigin,
  });
  return store;
}

/** Every path that can send the stored token: a live status check, a gate call, a worst-case model's turn. */
async function attemptEveryPath(store: Awaited<ReturnType<typeof storeWithToken>>, baseUrl?: string) {
  const github = createGithub(baseUrl === undefined ? {} : { baseUrl });
  const snapshot = await captureStatus({
    connectors: [github],
    source: store,
    subject: 'alice',
    verify: { ttlMs: 60_000, cache: createVerificationCache() },
  });
  const orchestrator = createOrchestrator({ statusSource: store, connectors: [github] });
  await orchestrator.start();
  const args = { owner: 'o', repo: 'r', issue_number: 1 };
  const envelope = await orchestrator.execute('github_get_issue', args, { subject: 'alice' });
  // Worst case: the model calls the tool every step whatever the prompt says.
  const model = createScriptedModel(() => ({ toolCalls: [{ toolName: 'github_get_issue', input: args }] }));
  await runTurn({
    model,
    thread: 'origin-binding',
    message: 'Show me issue 1',
    subject: 'alice',
    orchestrator,
    connectors: [github],
    statusSource: store,
    maxSteps: 4,
  });
  await orchestrator.stop();
  return { entry: snapshot.connectors.github!, envelope };
}

describe('a stored token does not follow a changed baseUrl', () => {
  it('sends 0 requests to the new origin and reports invalid_credentials saying why', async () => {
    const store = await storeWithToken('https://api.github.com');
    const { entry, envelope } = await attemptEveryPath(store, attackerHost);
    expect(requestsAt.attacker).toBe(0);
    expect(service.calls.filter((call) => call.headers.authorization?.includes(token))).toHaveLength(0);
    expect(entry.status).toBe('invalid_credentials');
    expect(entry.error).toBe(
      'These credentials were verified against https://api.github.com, and github is now configured for https://x.example; connect again.',
    );
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_credentials' });
  });

  it('treats a connection stored before origins were recorded as verified against the default origin', async () => {
    const store = await storeWithToken(undefined);
    const { entry } = await attemptEveryPath(store, attackerHost);
    expect(requestsAt.attacker).toBe(0);
    expect(entry).toMatchObject({ status: 'invalid_credentials' });
    expect(entry.error).toMatch(/verified against https:\/\/api\.github\.com/);
  });

  it('control: at the origin it was verified against, the same paths do reach the service', async () => {
    const store = await storeWithToken('https://api.github.com');
    const { entry, envelope } = await attemptEveryPath(store);
    expect(entry.status).toBe('connected');
    expect(envelope.ok).toBe(true);
    // verify once, the gate call once, the turn's first call once (its repeats are answered from memory).
    expect(requestsAt.github).toBeGreaterThanOrEqual(3);
    expect(requestsAt.attacker).toBe(0);
  });
});
