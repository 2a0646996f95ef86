import { HttpError, PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { createHttpClient } from './http.js';

/** A fetch that records each request and answers with the given responses in turn. */
function recordingFetch(...responses: Response[]) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    const response = responses.shift();
    if (!response) throw new Error('no response scripted');
    return response;
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });

describe('createHttpClient', () => {
  it('joins base URL and path, repeats array query values and authorizes per request', async () => {
    const { fetch, requests } = recordingFetch(json({ ok: 1 }), json({ ok: 2 }));
    const client = createHttpClient({
      settings: { baseUrl: 'https://ghe.example.com/api/v3/', fetch, headers: { 'x-extra': 'yes' } },
      defaultBaseUrl: 'https://api.example.com',
      authorize: (credentials) => ({ authorization: `Bearer ${credentials.token}` }),
      headers: { 'user-agent': 'patchbay-test' },
    });
    const first = await client.request<{ ok: number }>(
      { token: 'one' },
      { path: '/repos', query: { state: 'open', label: ['a', 'b'], page: undefined } },
    );
    await client.request({ token: 'two' }, { path: 'user' });
    expect(first).toMatchObject({ status: 200, data: { ok: 1 } });
    expect(requests[0]!.url).toBe('https://ghe.example.com/api/v3/repos?state=open&label=a&label=b');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer one');
    expect(requests[0]!.headers.get('x-extra')).toBe('yes');
    expect(requests[0]!.headers.get('user-agent')).toBe('patchbay-test');
    expect(requests[1]!.headers.get('authorization')).toBe('Bearer two');
  });

  it('sends JSON and form bodies; a request content-type wins', async () => {
    const { fetch, requests } = recordingFetch(json({}), json({}), json({}));
    const client = createHttpClient({
      settings: { fetch },
      defaultBaseUrl: 'https://api.example.com',
      authorize: () => ({}),
    });
    await client.request({}, { method: 'POST', path: '/a', json: { title: 'x' } });
    await client.request(
      {},
      { method: 'POST', path: '/b', form: { To: '+15550100', MediaUrl: ['https://m/1', 'https://m/2'] } },
    );
    await client.request(
      {},
      {
        method: 'POST',
        path: '/c',
        json: {},
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    );
    expect(requests[0]!.headers.get('content-type')).toBe('application/json');
    expect(await requests[0]!.text()).toBe('{"title":"x"}');
    expect(requests[1]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await requests[1]!.text()).toBe(
      'To=%2B15550100&MediaUrl=https%3A%2F%2Fm%2F1&MediaUrl=https%3A%2F%2Fm%2F2',
    );
    expect(requests[2]!.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('throws HttpError with the parsed body and headers on non-2xx', async () => {
    const { fetch } = recordingFetch(
      json({ message: 'Not Found' }, { status: 404, headers: { 'x-request-id': 'r1' } }),
    );
    const client = createHttpClient({
      settings: { fetch },
      defaultBaseUrl: 'https://api.example.com',
      authorize: () => ({}),
    });
    const error = await client.request({}, { path: '/missing' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, body: { message: 'Not Found' } });
    expect((error as HttpError).headers.get('x-request-id')).toBe('r1');
  });

  it('returns undefined data for 204 and text for non-JSON bodies', async () => {
    const { fetch } = recordingFetch(
      new Response(null, { status: 204 }),
      new Response('plain words', { status: 200 }),
    );
    const client = createHttpClient({
      settings: { fetch },
      defaultBaseUrl: 'https://api.example.com',
      authorize: () => ({}),
    });
    await expect(client.request({}, { method: 'DELETE', path: '/x' })).resolves.toMatchObject({
      status: 204,
      data: undefined,
    });
    await expect(client.request({}, { path: '/y' })).resolves.toMatchObject({ data: 'plain words' });
  });

  it('resolves the global fetch at call time, so late patches (msw) apply', async () => {
    const client = createHttpClient({
      settings: {},
      defaultBaseUrl: 'https://api.example.com',
      authorize: () => ({}),
    });
    const original = globalThis.fetch;
    const { fetch, requests } = recordingFetch(json({ late: true }));
    globalThis.fetch = fetch;
    try {
      await expect(client.request({}, { path: '/late' })).resolves.toMatchObject({ data: { late: true } });
    } finally {
      globalThis.fetch = original;
    }
    expect(requests).toHaveLength(1);
  });
});

describe('createHttpClient: mapError', () => {
  const failing = () =>
    recordingFetch(
      json({ code: 50013, message: 'Missing Permissions' }, { status: 403 }),
      json({ fine: true }),
    );

  it('throws what the hook makes of a non-2xx answer, given the error and the request', async () => {
    const { fetch, requests } = failing();
    const seen: { status: number; requiredScopes: readonly string[] | undefined }[] = [];
    const client = createHttpClient<'SEND_MESSAGES' | 'VIEW_CHANNEL'>({
      settings: { fetch },
      defaultBaseUrl: 'https://api.example.com',
      authorize: () => ({}),
      mapError: (error, request) => {
        seen.push({ status: error.status, requiredScopes: request.requiredScopes });
        return new HttpError({
          status: 403,
          headers: error.headers,
          missingScopes: [...(request.requiredScopes ?? [])],
        });
      },
    });
    const error = await client
      .request({}, { method: 'POST', path: '/messages', json: { a: 1 }, requiredScopes: ['SEND_MESSAGES'] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 403, missingScopes: ['SEND_MESSAGES'] });
    expect(seen).toEqual([{ status: 403, requiredScopes: ['SEND_MESSAGES'] }]);
    // What the call needs is for the hook only: it never reaches the service.
    expect(await requests[0]!.text()).toBe('{"a":1}');
    expect([...requests[0]!.headers.keys()].join(' ')).not.toMatch(/scope/i);
  });

  it('may answer with an envelope or a PatchbayError, thrown as they are', async () => {
    const envelope = { ok: false, error_type: 'conflict', user_message: 'Opted out.', retryable: false };
    const { fetch } = recordingFetch(json({}, { status: 400 }), json({}, { status: 429 }));
    const client = createHttpClient({
      settings: { fetch },
      defaultBaseUrl: 'https://api.example.com',
      authorize: () => ({}),
      mapError: (error) =>
        error.status === 400 ? envelope : new PatchbayError('rate_limited', 'Daily quota used up.'),
    });
    await expect(client.request({}, { path: '/a' })).rejects.toBe(envelope);
    await expect(client.request({}, { path: '/b' })).rejects.toMatchObject({
      code: 'rate_limited',
      message: 'Daily quota used up.',
    });
  });

  it('is not asked about 2xx answers or about failures without an answer', async () => {
    let calls = 0;
    const client = createHttpClient({
      settings: {
        fetch: (async (input: RequestInfo | URL) => {
          if (String(input).endsWith('/down')) throw new TypeError('fetch failed');
          return json({ fine: true });
        }) as typeof globalThis.fetch,
      },
      defaultBaseUrl: 'https://api.example.com',
      authorize: () => ({}),
      mapError: (error) => {
        calls += 1;
        return error;
      },
    });
    await expect(client.request({}, { path: '/up' })).resolves.toMatchObject({ data: { fine: true } });
    await expect(client.request({}, { path: '/down' })).rejects.toThrow('fetch failed');
    expect(calls).toBe(0);
  });
});

describe('createHttpClient: where credentials may go', () => {
  const client = (fetch: typeof globalThis.fetch) =>
    createHttpClient({
      settings: { baseUrl: 'https://api.example.com/v1', fetch },
      defaultBaseUrl: 'https://unused.example.com',
      authorize: () => ({ authorization: 'Bearer secret-token' }),
    });

  it('follows an absolute URL on the base origin (a pagination link)', async () => {
    const { fetch, requests } = recordingFetch(json({ page: 2 }));
    await expect(
      client(fetch).request({}, { path: 'https://api.example.com/v1/items?page=2' }),
    ).resolves.toMatchObject({ data: { page: 2 } });
    expect(requests[0]!.url).toBe('https://api.example.com/v1/items?page=2');
  });

  it('refuses an absolute URL on another origin without sending anything', async () => {
    const { fetch, requests } = recordingFetch(json({}));
    await expect(
      client(fetch).request({}, { path: 'https://collector.example.net/steal' }),
    ).rejects.toMatchObject({ code: 'internal_error' });
    expect(requests).toHaveLength(0);
  });

  it.each(['/repos/../../admin', '/repos/%2e%2e/admin', '/repos/%2E./x', '/a/./b'])(
    'refuses the dot segments in %s without sending anything',
    async (path) => {
      const { fetch, requests } = recordingFetch(json({}));
      await expect(client(fetch).request({}, { path })).rejects.toMatchObject({
        code: 'invalid_arguments',
      });
      expect(requests).toHaveLength(0);
    },
  );

  it.each(['not a url', 'ftp://files.example.com'])(
    'refuses the base URL %s when the client is created, naming the setting',
    (baseUrl) => {
      expect(() =>
        createHttpClient({
          settings: { baseUrl },
          defaultBaseUrl: 'https://x.example',
          authorize: () => ({}),
        }),
      ).toThrow(
        expect.objectContaining({ code: 'invalid_settings', message: expect.stringMatching(/baseUrl/) }),
      );
    },
  );

  it.each(['http://api.example.com', 'http://10.0.0.5:8080/api', 'http://128.0.0.1'])(
    'refuses the plain-http base URL %s (insecure_base_url) unless allowInsecureHttp',
    (baseUrl) => {
      const create = (allowInsecureHttp?: boolean) =>
        createHttpClient({
          settings: { baseUrl, allowInsecureHttp },
          defaultBaseUrl: 'https://x.example',
          authorize: () => ({}),
        });
      expect(() => create()).toThrow(
        expect.objectContaining({ code: 'insecure_base_url', message: expect.stringMatching(/clear text/) }),
      );
      expect(create(true).origin).toBe(new URL(baseUrl).origin);
    },
  );

  it.each(['http://127.0.0.1:3000', 'http://127.8.9.10', 'http://localhost:8080/v1', 'http://[::1]:9'])(
    'accepts plain http to the loopback host %s and reports its origin',
    (baseUrl) => {
      const created = createHttpClient({
        settings: { baseUrl },
        defaultBaseUrl: 'https://x.example/api',
        authorize: () => ({}),
      });
      expect(created.origin).toBe(new URL(baseUrl).origin);
      expect(created.defaultOrigin).toBe('https://x.example');
    },
  );

  it('keeps dots inside a segment (file names, versions)', async () => {
    const { fetch, requests } = recordingFetch(json({}));
    await client(fetch).request({}, { path: '/repos/octo/my.repo..v2/x.json' });
    expect(requests[0]!.url).toBe('https://api.example.com/v1/repos/octo/my.repo..v2/x.json');
  });
});
