import { toEnvelope } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { assertNoUnhandledRequests, createTestServer } from './test-server.js';

describe('createTestServer', () => {
  const server = createTestServer({
    'GET https://api.example.test/user': { body: { login: 'octo' }, headers: { 'x-oauth-scopes': 'repo' } },
    'https://api.example.test/repos/:owner/:repo': (request) => ({
      status: 201,
      body: {
        owner: request.params.owner,
        method: request.method,
        title: (request.body as { title: string }).title,
      },
    }),
    'GET https://api.example.test/flaky': [{ status: 503, text: 'unavailable' }, { body: { ok: true } }],
    'POST https://api.example.test/notes': { status: 204 },
  });

  it('answers a method-and-URL route with JSON, status and headers', async () => {
    const response = await fetch('https://api.example.test/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-oauth-scopes')).toBe('repo');
    expect(await response.json()).toEqual({ login: 'octo' });
  });

  it('matches a bare URL for any method, with path params, and records the request', async () => {
    const response = await fetch('https://api.example.test/repos/octo/hello?draft=true&page=2', {
      method: 'PATCH',
      headers: { Authorization: 'Bearer t0ken', 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Bug' }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ owner: 'octo', method: 'PATCH', title: 'Bug' });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({
      method: 'PATCH',
      url: 'https://api.example.test/repos/octo/hello?draft=true&page=2',
      headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json' },
      body: { title: 'Bug' },
      searchParams: { draft: 'true', page: '2' },
      params: { owner: 'octo', repo: 'hello' },
    });
  });

  it('records a non-JSON body as text', async () => {
    await fetch('https://api.example.test/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'channel=C1&text=hi',
    });
    expect(server.calls[0]?.body).toBe('channel=C1&text=hi');
  });

  it('plays a response sequence in order and repeats the last one', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1)
      statuses.push((await fetch('https://api.example.test/flaky')).status);
    expect(statuses).toEqual([503, 200, 200]);
  });

  it('starts sequences and calls afresh in every test', async () => {
    expect(server.calls).toEqual([]);
    expect((await fetch('https://api.example.test/flaky')).status).toBe(503);
  });

  it('lets a test override a route with use()', async () => {
    server.use({
      'GET https://api.example.test/user': { status: 401, body: { message: 'Bad credentials' } },
    });
    expect((await fetch('https://api.example.test/user')).status).toBe(401);
  });

  it('restores the original routes after a test that used use()', async () => {
    expect((await fetch('https://api.example.test/user')).status).toBe(200);
  });

  it('fails a route at the network level with networkError()', async () => {
    server.networkError('https://api.example.test/user');
    const error = await fetch('https://api.example.test/user').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(toEnvelope(error)).toMatchObject({ ok: false, error_type: 'network_error' });
  });
});

describe('createTestServer with a manual lifecycle', () => {
  it('rejects an unhandled request in the caller and names it', async () => {
    const server = createTestServer(
      { 'GET https://api.example.test/known': { body: {} } },
      { lifecycle: false },
    );
    server.listen();
    try {
      await expect(fetch('https://api.example.test/unknown', { method: 'DELETE' })).rejects.toThrow(
        TypeError,
      );
      expect(server.unhandled.map((request) => `${request.method} ${request.url}`)).toEqual([
        'DELETE https://api.example.test/unknown',
      ]);
      expect(() => assertNoUnhandledRequests(server.unhandled)).toThrow(
        /Unhandled request .*DELETE https:\/\/api\.example\.test\/unknown/,
      );
    } finally {
      server.close();
    }
  });
});

describe('createTestServer inside a test', () => {
  it('listens at once and answers for that test', async () => {
    const server = createTestServer({ 'https://api.example.test/scoped': { body: { scoped: true } } });
    expect(await (await fetch('https://api.example.test/scoped')).json()).toEqual({ scoped: true });
    expect(server.calls).toHaveLength(1);
  });
});
