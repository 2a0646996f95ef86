import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConnector, defineTool } from '@patchbay/connector';
import type { Proposal } from '@patchbay/connector/ports';
import { PatchbayError, redactString, success } from '@patchbay/envelope';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApiRoutes } from './api-routes.js';
import type { ConsoleBackend } from './backend.js';
import { type RunningConsole, startConsole } from './console-server.js';
import { LiveFeed } from './live-feed.js';

const goodToken = 'tok_live_4Fh29sKq81LmZx0pQ';

const stubConnector = defineConnector({
  id: 'stub',
  name: 'Stub Service',
  description: 'Test stand-in connector; nothing behind it.',
  auth: { kind: 'bearer', scopes: [], fields: [{ name: 'token', description: 'API token', secret: true }] },
  capabilities: ['delete things'],
  wouldEnable: ['Delete things from chat'],
  setupUrl: 'https://stub.example/tokens',
  tools: [
    defineTool({
      name: 'stub_delete',
      description: 'Deletes one thing.',
      input: z.object({ item: z.string().describe('What to delete') }),
      effect: 'destructive',
      execute: async () => success({}),
    }),
  ],
  async verify() {
    return { valid: true, scopes: [] };
  },
});

/**
 * Test stand-in for the CLI's backend: a real SQLite store, decisions made by the store's
 * compare-and-set directly (the CLI's backend goes through the orchestrator; its browser tests cover
 * that), and a connect whose refusal message echoes the token, as a careless connector's might.
 */
function standInBackend(store: PatchbayStore, calls: string[]): ConsoleBackend {
  return {
    store,
    defaultSubject: 'alice',
    proposalTtlMs: 60_000,
    connectors: async () => [stubConnector],
    async approve(id, decidedBy) {
      const approved = await store.proposals.transition(id, 'pending', 'approved', { decidedBy });
      if (!approved) {
        const current = await store.proposals.get(id);
        if (!current) throw new PatchbayError('proposal_not_found', `no proposal with id ${id}`);
        throw new PatchbayError('proposal_not_pending', `proposal ${id} is ${current.state}, not pending`);
      }
      calls.push(id);
      const envelope = { ok: true as const, data: { ran: id } };
      await store.audit.append({ event: 'proposal_approved', proposal: id, decided_by: decidedBy, envelope });
      return { envelope, proposal: await store.proposals.transition(id, 'approved', 'executed') };
    },
    async reject(id, reason, decidedBy) {
      const rejected = await store.proposals.transition(id, 'pending', 'rejected', { reason, decidedBy });
      if (!rejected) throw new PatchbayError('proposal_not_pending', `proposal ${id} is not pending`);
      return rejected;
    },
    async connect(_subject, _connectorId, credentials) {
      return {
        status: 'refused',
        reason: 'invalid_credentials',
        message: `The service said: token ${credentials.token} is revoked`,
      };
    },
    disconnect: async (subject, connectorId) => store.deleteConnection(subject, connectorId),
    async setPolicy(action, connectorId, subject) {
      if (action === 'disable') await store.disableConnector(connectorId, subject);
      else return store.enableConnector(connectorId, subject);
      return true;
    },
    connectorStatus: async () => [
      { id: 'stub', name: 'Stub Service', status: 'not_configured', scopes: [], tools: [] },
    ],
    turnContext: async () => ({
      context: '<current_time/>',
      tokens: 3,
      encoding: 'o200k_base',
      captured_at: '',
    }),
  };
}

/** A request with exactly these headers (fetch would set Host and Origin itself). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('the console server', () => {
  let home: string;
  let store: PatchbayStore;
  let running: RunningConsole;
  let calls: string[];
  let origin: string;
  let secretKey: Buffer;

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'patchbay-console-'));
    secretKey = randomBytes(32);
    store = openStore({ home, secretKey, env: {} });
    calls = [];
    running = await startConsole({ backend: standInBackend(store, calls), pollIntervalMs: 50 });
    origin = running.url.replace(/\/$/, '');
  });

  afterEach(async () => {
    await running.close();
    await store.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function signIn(): Promise<{ cookie: string; csrf: string }> {
    const login = await send(running.loginUrl);
    expect(login.status).toBe(303);
    const setCookie = String(login.headers['set-cookie']);
    const cookie = setCookie.split(';')[0]!;
    const session = await send(`${running.url}api/session`, { headers: { cookie } });
    return { cookie, csrf: (JSON.parse(session.body) as { csrf_token: string }).csrf_token };
  }

  async function pendingProposal(id: string): Promise<Proposal> {
    const proposal: Proposal = {
      id,
      subject: 'alice',
      tool: 'stub_delete',
      args: { item: id },
      argsHash: 'x',
      createdAt: new Date().toISOString(),
      state: 'pending',
    };
    await store.proposals.create(proposal);
    return proposal;
  }

  it('listens on loopback only and hands out a session once, for an HttpOnly SameSite=Strict cookie', async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const login = await send(running.loginUrl);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/');
    expect(String(login.headers['set-cookie'])).toMatch(
      new RegExp(
        `^patchbay_console_${running.port}=[\\w-]{43}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${8 * 60 * 60}$`,
      ),
    );
    expect((await send(running.loginUrl)).status).toBe(401);
    // A wrong token is no better.
    expect((await send(`${running.url}?token=${'A'.repeat(43)}`)).status).toBe(401);
    // A renewed link works once again; the cookie it gives is a new session.
    const renewed = await send(running.renewLoginUrl());
    expect(renewed.status).toBe(303);
    expect(String(renewed.headers['set-cookie'])).not.toBe(String(login.headers['set-cookie']));
  });

  it('answers 401 without a session, for the app and the API alike', async () => {
    const page = await send(running.url);
    expect(page.status).toBe(401);
    expect(page.body).toContain('Sign-in needed');
    expect(page.body).not.toContain('<script');
    for (const path of ['api/session', 'api/proposals', 'api/audit', 'api/events', 'assets/x.js']) {
      expect((await send(`${running.url}${path}`)).status, path).toBe(401);
    }
    expect(
      (
        await send(`${running.url}api/session`, {
          headers: { cookie: `patchbay_console_${running.port}=forged` },
        })
      ).status,
    ).toBe(401);
  });

  it('refuses a foreign Host or Origin with 403, even with a valid session', async () => {
    const { cookie, csrf } = await signIn();
    const session = `${running.url}api/session`;
    expect((await send(session, { headers: { cookie } })).status).toBe(200);
    expect((await send(session, { headers: { cookie, host: 'attacker.example' } })).status).toBe(403);
    expect((await send(session, { headers: { cookie, host: `127.0.0.1:${running.port + 1}` } })).status).toBe(
      403,
    );
    expect((await send(session, { headers: { cookie, origin: 'http://attacker.example' } })).status).toBe(
      403,
    );
    expect(
      (await send(session, { headers: { cookie, origin: `http://localhost:${running.port}` } })).status,
    ).toBe(200);
    expect((await send(running.loginUrl, { headers: { host: 'attacker.example' } })).status).toBe(403);
    const disable = (headers: Record<string, string>) =>
      send(`${running.url}api/connectors/stub/disable`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    expect((await disable({ origin: 'http://attacker.example', 'x-csrf-token': csrf })).status).toBe(403);
    expect(await store.listPolicy()).toEqual([]);
  });

  it('guards every route of the API table: 401 without a session, 403 for a state change without CSRF token', async () => {
    const routes = createApiRoutes(standInBackend(store, calls), new LiveFeed(store), 'test');
    // A concrete path for each pattern: captured parts become "stub" (or the first alternative).
    const pathOf = (pattern: RegExp) =>
      pattern.source
        .replace(/^\^|\$$/g, '')
        .replace(/\(\[\^\/\]\+\)/g, 'stub')
        .replace(/\(([a-z]+)(\|[a-z]+)*\)/g, '$1')
        .replaceAll('\\/', '/');
    const posts = routes.filter((route) => route.method === 'POST').map((route) => pathOf(route.path));
    const gets = routes.filter((route) => route.method === 'GET').map((route) => pathOf(route.path));
    expect(posts).toEqual(
      expect.arrayContaining(['/api/proposals/stub/approve', '/api/connectors/stub/disable']),
    );
    expect(posts.length + gets.length).toBe(routes.length);
    for (const path of [...gets, ...posts]) {
      expect((await send(`${running.url}${path.slice(1)}`)).status, path).toBe(401);
    }
    const { cookie } = await signIn();
    for (const path of posts) {
      const answer = await send(`${running.url}${path.slice(1)}`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'r', credentials: { token: 't' } }),
      });
      expect(answer.status, path).toBe(403);
    }
    expect(calls).toEqual([]);
    expect(await store.listPolicy()).toEqual([]);
  });

  it('needs the CSRF token and the Origin on every state change', async () => {
    const { cookie, csrf } = await signIn();
    const disable = (headers: Record<string, string>) =>
      send(`${running.url}api/connectors/stub/disable`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ scope: 'everyone' }),
      });
    expect((await disable({ origin })).status).toBe(403);
    expect((await disable({ origin, 'x-csrf-token': 'wrong' })).status).toBe(403);
    expect((await disable({ 'x-csrf-token': csrf })).status).toBe(403);
    expect(await store.listPolicy()).toEqual([]);
    const done = await disable({ origin, 'x-csrf-token': csrf });
    expect(done.status).toBe(200);
    expect((await store.listPolicy()).map((rule) => [rule.connectorId, rule.subject])).toEqual([
      ['stub', undefined],
    ]);
  });

  it('approves once: a second approval of the same proposal is a 409 and runs nothing', async () => {
    const { cookie, csrf } = await signIn();
    await pendingProposal('prop_one');
    const approve = () =>
      send(`${running.url}api/proposals/prop_one/approve`, {
        method: 'POST',
        headers: { cookie, origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: '{}',
      });
    const answers = await Promise.all([approve(), approve()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(calls).toEqual(['prop_one']);
    const listed = JSON.parse((await send(`${running.url}api/proposals`, { headers: { cookie } })).body);
    expect(listed).toEqual([
      expect.objectContaining({
        id: 'prop_one',
        state: 'executed',
        decided_by: expect.stringMatching(/^console/),
        envelope: { ok: true, data: { ran: 'prop_one' } },
      }),
    ]);
    const missing = await send(`${running.url}api/proposals/prop_none/approve`, {
      method: 'POST',
      headers: { cookie, origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(404);
  });

  it('lists pending proposals first and needs a reason to reject', async () => {
    const { cookie, csrf } = await signIn();
    await pendingProposal('prop_a');
    await pendingProposal('prop_b');
    await store.proposals.transition('prop_a', 'pending', 'rejected', { reason: 'no' });
    const listed = JSON.parse((await send(`${running.url}api/proposals`, { headers: { cookie } })).body) as {
      id: string;
      expires_at: string;
      created_at: string;
    }[];
    expect(listed.map((proposal) => proposal.id)).toEqual(['prop_b', 'prop_a']);
    expect(Date.parse(listed[0]!.expires_at) - Date.parse(listed[0]!.created_at)).toBe(60_000);
    const reject = (body: unknown) =>
      send(`${running.url}api/proposals/prop_b/reject`, {
        method: 'POST',
        headers: { cookie, origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await reject({})).status).toBe(400);
    expect((await reject({ reason: '   ' })).status).toBe(400);
    const rejected = await reject({ reason: 'wrong branch' });
    expect(rejected.status).toBe(200);
    expect(JSON.parse(rejected.body).proposal).toMatchObject({ state: 'rejected', reason: 'wrong branch' });
  });

  it('never sends a typed credential back, even when the backend echoes it', async () => {
    const { cookie, csrf } = await signIn();
    const answer = await send(`${running.url}api/connectors/stub/connect`, {
      method: 'POST',
      headers: { cookie, origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'alice', credentials: { token: goodToken } }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain(goodToken);
    expect(JSON.parse(answer.body)).toEqual({
      status: 'refused',
      reason: 'invalid_credentials',
      message: redactString(`The service said: token ${goodToken} is revoked`, [goodToken]),
    });
    const missing = await send(`${running.url}api/connectors/stub/connect`, {
      method: 'POST',
      headers: { cookie, origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ credentials: {} }),
    });
    expect(missing.status).toBe(400);
  });

  it('streams store changes and new audit entries to the page', async () => {
    const { cookie } = await signIn();
    const controller = new AbortController();
    const response = await fetch(`${running.url}api/events`, {
      headers: { cookie },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${text}`);
        text += new TextDecoder().decode(value);
      }
    };
    await until(/retry: 2000/);
    // Another connection to the same database, as another process would write.
    const other = openStore({ path: store.location, secretKey, env: {} });
    try {
      await other.disableConnector('stub', 'alice');
      await until(/event: change\ndata: \{"type":"change","topic":"connectors","subject":"alice"\}/);
      await other.audit.append({ event: 'connector_disabled', connector: 'stub', subject: 'alice' });
      await until(/event: audit\ndata: .*"connector_disabled"/);
    } finally {
      controller.abort();
      await other.close();
    }
  });

  it('signs out server-side: the cookie and CSRF token stop working, the event stream closes, a new link is printed', async () => {
    await running.close();
    const printed: Array<{ url: string; why: string }> = [];
    running = await startConsole({
      backend: standInBackend(store, calls),
      pollIntervalMs: 50,
      onSignInAgain: (url, why) => printed.push({ url, why }),
    });
    origin = running.url.replace(/\/$/, '');
    const { cookie, csrf } = await signIn();
    const signOut = (headers: Record<string, string>) =>
      send(`${running.url}api/sign-out`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    // A page elsewhere cannot sign the user out: like every state change it needs both.
    expect((await signOut({ origin })).status).toBe(403);
    expect((await signOut({ 'x-csrf-token': csrf })).status).toBe(403);
    expect(running.sessionCount()).toBe(1);

    const events = await fetch(`${running.url}api/events`, { headers: { cookie } });
    const reader = events.body!.getReader();
    await reader.read();
    const done = await signOut({ origin, 'x-csrf-token': csrf });
    expect(done.status).toBe(200);
    expect(String(done.headers['set-cookie'])).toBe(
      `patchbay_console_${running.port}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`,
    );
    expect(running.sessionCount()).toBe(0);
    // The stream ends: nothing more reaches the signed-out page.
    let ended = false;
    while (!ended) ended = (await reader.read()).done;
    // The old cookie is worth nothing now, even with its CSRF token.
    expect((await send(`${running.url}api/session`, { headers: { cookie } })).status).toBe(401);
    expect((await send(running.url, { headers: { cookie } })).status).toBe(401);
    const disable = await send(`${running.url}api/connectors/stub/disable`, {
      method: 'POST',
      headers: { cookie, origin, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(disable.status).toBe(401);
    expect(await store.listPolicy()).toEqual([]);
    // The person is handed a new one-time link, and it works.
    expect(printed.map((entry) => entry.why)).toEqual(['signed_out']);
    expect((await send(printed[0]!.url)).status).toBe(303);
  });

  it('ends a session after its idle limit and after its absolute limit, however active', async () => {
    await running.close();
    const printed: string[] = [];
    // The limits are the subject, so the test moves the clock the sessions read (Date) itself; timers
    // and sockets stay real, and a slow machine changes nothing.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const sessionOf = async (cookie: string) => send(`${running.url}api/session`, { headers: { cookie } });
      running = await startConsole({
        backend: standInBackend(store, calls),
        sessionIdleTimeoutMs: 300,
        onSignInAgain: (_url, why) => printed.push(why),
      });
      const idle = await signIn();
      // Each request is activity: 598 ms after sign-in, never 300 ms idle, it lives.
      for (const step of [299, 299]) {
        vi.advanceTimersByTime(step);
        expect((await sessionOf(idle.cookie)).status).toBe(200);
      }
      vi.advanceTimersByTime(300);
      const answer = await sessionOf(idle.cookie);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatch(/session ended/);
      expect(printed).toEqual(['expired']);
      await running.close();
      // Absolute: the idle limit is far away and the session is in use, yet it ends at its age.
      running = await startConsole({ backend: standInBackend(store, calls), sessionMaxAgeMs: 600 });
      const active = await signIn();
      for (const step of [299, 299]) {
        vi.advanceTimersByTime(step);
        expect((await sessionOf(active.cookie)).status).toBe(200);
      }
      vi.advanceTimersByTime(2);
      expect((await sessionOf(active.cookie)).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});
