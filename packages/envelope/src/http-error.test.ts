import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from './http-error.js';
import { PatchbayError } from './patchbay-error.js';
import { toEnvelope } from './to-envelope.js';

const token = 'ghp_fixturefixturefixturefixture0123456789';
const server = setupServer(
  http.get('https://api.service.test/rate-limited', () =>
    HttpResponse.json(
      { message: 'API rate limit exceeded for user ID 1.' },
      { status: 403, headers: { 'x-ratelimit-remaining': '0', 'retry-after': '42' } },
    ),
  ),
  http.get('https://api.service.test/scopes', () =>
    HttpResponse.json(
      { message: 'Resource not accessible by personal access token' },
      { status: 403, headers: { 'x-accepted-oauth-scopes': 'repo', 'x-oauth-scopes': 'read:user' } },
    ),
  ),
  http.get('https://api.service.test/echo-token', ({ request }) =>
    HttpResponse.text(`invalid token: ${request.headers.get('authorization')}`, { status: 401 }),
  ),
  http.get('https://api.service.test/html', () =>
    HttpResponse.html('<html><body><pre>Traceback at /srv/app.py</pre></body></html>', { status: 502 }),
  ),
  http.get('https://api.service.test/empty', () => new HttpResponse(null, { status: 404 })),
);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function failed(path: string): Promise<HttpError> {
  const response = await fetch(`https://api.service.test${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return HttpError.fromResponse(response);
}

describe('HttpError.fromResponse', () => {
  it('reads status, headers and a JSON body', async () => {
    const error = await failed('/rate-limited');
    expect(error).toBeInstanceOf(HttpError);
    expect(PatchbayError.isInstance(error)).toBe(true);
    expect(error.code).toBe('http_error');
    expect(error.status).toBe(403);
    expect(error.headers.get('retry-after')).toBe('42');
    expect(error.body).toEqual({ message: 'API rate limit exceeded for user ID 1.' });
    expect(toEnvelope(error, { connector: 'github' })).toMatchObject({
      error_type: 'rate_limited',
      retry_after_s: 42,
      connector: 'github',
    });
  });

  it('lets toEnvelope list the scopes GitHub says are missing', async () => {
    expect(toEnvelope(await failed('/scopes'))).toMatchObject({
      error_type: 'permission_denied',
      missing_scopes: ['repo'],
    });
  });

  it('keeps a text body, and toEnvelope removes the token the service echoed', async () => {
    const error = await failed('/echo-token');
    expect(error.body).toBe(`invalid token: Bearer ${token}`);
    const envelope = toEnvelope(error, { secrets: [token] });
    expect(envelope).toMatchObject({ error_type: 'invalid_credentials' });
    expect(JSON.stringify(envelope)).not.toContain(token);
  });

  it('keeps an HTML body out of the envelope', async () => {
    const envelope = toEnvelope(await failed('/html'));
    expect(envelope).toMatchObject({
      error_type: 'upstream_error',
      user_message:
        'The service had a problem on its side and did not finish the request; try again in a moment.',
    });
  });

  it('treats an empty body as no body', async () => {
    const error = await failed('/empty');
    expect(error.body).toBeUndefined();
    expect(error.message).toBe('HTTP 404');
  });

  it('never rejects when the body was already read', async () => {
    const response = await fetch('https://api.service.test/scopes');
    await response.text();
    const error = await HttpError.fromResponse(response, { message: 'GitHub refused the call' });
    expect(error.body).toBeUndefined();
    expect(error.message).toBe('GitHub refused the call');
  });

  it('survives malformed header input', () => {
    const error = new HttpError({ status: 500, headers: { 'bad header': 'x' } });
    expect([...error.headers.keys()]).toEqual([]);
  });
});
