import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { failure, success } from './constructors.js';
import { envelopeSchema, isEnvelope } from './envelope.js';
import { HttpError } from './http-error.js';
import { PatchbayError } from './patchbay-error.js';
import { type EnvelopeContext, retryAfterSeconds, toEnvelope } from './to-envelope.js';

const now = new Date('2026-11-21T15:00:00Z');
const nowSeconds = now.getTime() / 1000;
const context: EnvelopeContext = {
  connector: 'github',
  setupUrl: 'https://patchbay.test/connect/github',
  now: () => now,
};

const schema = z.object({
  to: z.string(),
  text: z.string(),
  count: z.number().optional(),
});
const zodFailure = (input: unknown) => {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) throw new Error('fixture must fail');
  return result.error;
};
const questions = { to: 'Who should receive it?', text: 'What should the message say?' };

function codeError(code: string, message = 'socket failure'): Error {
  return Object.assign(new Error(message), { code });
}

function abortReason(name: 'TimeoutError' | 'AbortError'): unknown {
  return new DOMException('The operation was aborted', name);
}

const throwingGetter = Object.defineProperty({}, 'name', {
  enumerable: true,
  get() {
    throw new Error('getter exploded at /srv/app/internal.js:12');
  },
});
const hostileProxy = new Proxy(
  {},
  {
    get() {
      throw new Error('proxy get trap with internals');
    },
    has() {
      throw new Error('proxy has trap');
    },
    ownKeys() {
      throw new Error('proxy ownKeys trap');
    },
    getPrototypeOf() {
      throw new Error('proxy getPrototypeOf trap');
    },
  },
);

interface Row {
  rule: string;
  value: unknown;
  context?: EnvelopeContext;
  expected: Record<string, unknown>;
  /** Keys that must be absent from the envelope. */
  absent?: string[];
}

// One row per mapping rule of toEnvelope.
const rows: Row[] = [
  // HTTP status codes
  {
    rule: '401 → invalid_credentials with setup_url',
    value: new HttpError({ status: 401, body: { message: 'Bad credentials' } }),
    expected: {
      error_type: 'invalid_credentials',
      connector: 'github',
      setup_url: 'https://patchbay.test/connect/github',
      retryable: false,
    },
  },
  {
    rule: '403 without scope or rate-limit signal → permission_denied with the service message',
    value: new HttpError({ status: 403, body: { message: 'Resource not accessible by integration' } }),
    expected: {
      error_type: 'permission_denied',
      user_message: expect.stringContaining('Resource not accessible by integration'),
      setup_url: 'https://patchbay.test/connect/github',
    },
    absent: ['missing_scopes'],
  },
  {
    rule: '403 with explicit missingScopes on the HttpError',
    value: new HttpError({ status: 403, missingScopes: ['admin:org'] }),
    expected: { error_type: 'permission_denied', missing_scopes: ['admin:org'] },
  },
  {
    rule: '403 GitHub x-accepted-oauth-scopes minus x-oauth-scopes → missing_scopes',
    value: new HttpError({
      status: 403,
      headers: { 'x-accepted-oauth-scopes': 'repo, workflow', 'x-oauth-scopes': 'repo, read:org' },
    }),
    expected: {
      error_type: 'permission_denied',
      missing_scopes: ['workflow'],
      user_message: 'The connection is missing the permission workflow.',
    },
  },
  {
    rule: '403 GitHub accepted scopes all granted → permission_denied without missing_scopes',
    value: new HttpError({
      status: 403,
      headers: { 'x-accepted-oauth-scopes': 'repo', 'x-oauth-scopes': 'repo' },
    }),
    expected: { error_type: 'permission_denied' },
    absent: ['missing_scopes'],
  },
  {
    rule: '403 Slack-style body `needed` → missing_scopes',
    value: new HttpError({
      status: 403,
      body: { ok: false, error: 'missing_scope', needed: 'chat:write,channels:read', provided: 'users:read' },
    }),
    expected: { error_type: 'permission_denied', missing_scopes: ['chat:write', 'channels:read'] },
  },
  {
    rule: 'Slack 200 body { ok: false, error: missing_scope, needed } → permission_denied',
    value: { ok: false, error: 'missing_scope', needed: 'chat:write' },
    expected: { error_type: 'permission_denied', missing_scopes: ['chat:write'] },
    absent: ['meta'],
  },
  {
    rule: 'Slack 200 body { ok: false, error: invalid_auth } → invalid_credentials',
    value: { ok: false, error: 'invalid_auth' },
    expected: { error_type: 'invalid_credentials' },
  },
  {
    rule: 'Slack 200 body { ok: false, error: ratelimited } → rate_limited',
    value: { ok: false, error: 'ratelimited' },
    expected: { error_type: 'rate_limited', retryable: true },
  },
  {
    rule: 'HttpError for a 200 with a Slack error body → mapped by its error code',
    value: new HttpError({ status: 200, body: { ok: false, error: 'token_revoked' } }),
    expected: { error_type: 'invalid_credentials', setup_url: 'https://patchbay.test/connect/github' },
  },
  {
    rule: 'HttpError for a 200 with a *_not_found error code → not_found',
    value: new HttpError({ status: 200, body: { ok: false, error: 'channel_not_found' } }),
    expected: { error_type: 'not_found', retryable: false },
  },
  {
    rule: 'HttpError for a 200 ratelimited body keeps Retry-After from the headers',
    value: new HttpError({
      status: 200,
      headers: { 'retry-after': '12' },
      body: { ok: false, error: 'ratelimited' },
    }),
    expected: { error_type: 'rate_limited', retry_after_s: 12 },
  },
  {
    rule: 'HttpError for a 200 with an unknown error code → upstream_error naming the code',
    value: new HttpError({ status: 200, body: { ok: false, error: 'is_archived' } }),
    expected: {
      error_type: 'upstream_error',
      retryable: false,
      user_message: expect.stringContaining('is_archived'),
    },
  },
  {
    rule: 'Slack body alone with an unknown error code → upstream_error naming the code, as in an HttpError',
    value: { ok: false, error: 'is_archived' },
    expected: {
      error_type: 'upstream_error',
      retryable: false,
      user_message: expect.stringContaining('is_archived'),
    },
    absent: ['meta'],
  },
  {
    rule: '403 with x-ratelimit-remaining 0 and GitHub epoch x-ratelimit-reset → rate_limited',
    value: new HttpError({
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowSeconds + 120) },
      body: { message: 'API rate limit exceeded for user ID 1.' },
    }),
    expected: { error_type: 'rate_limited', retry_after_s: 120, retryable: true },
  },
  {
    rule: '403 with Retry-After (GitHub secondary limit) → rate_limited',
    value: new HttpError({ status: 403, headers: { 'retry-after': '60' } }),
    expected: { error_type: 'rate_limited', retry_after_s: 60 },
  },
  {
    rule: '403 with a "rate limit" body message and no headers → rate_limited without retry_after_s',
    value: new HttpError({ status: 403, body: { message: 'You have exceeded a secondary rate limit.' } }),
    expected: {
      error_type: 'rate_limited',
      user_message: 'The service is rate limiting requests; try again later.',
    },
    absent: ['retry_after_s'],
  },
  {
    rule: '429 with Retry-After seconds',
    value: new HttpError({ status: 429, headers: { 'Retry-After': '30' } }),
    expected: {
      error_type: 'rate_limited',
      retry_after_s: 30,
      user_message: 'The service is rate limiting requests; try again in 30 seconds.',
    },
  },
  {
    rule: '429 with Retry-After as an HTTP date',
    value: new HttpError({ status: 429, headers: { 'retry-after': 'Sat, 21 Nov 2026 15:01:30 GMT' } }),
    expected: { error_type: 'rate_limited', retry_after_s: 90 },
  },
  {
    rule: '429 with x-ratelimit-reset in epoch milliseconds',
    value: new HttpError({ status: 429, headers: { 'x-ratelimit-reset': String(now.getTime() + 45_000) } }),
    expected: { error_type: 'rate_limited', retry_after_s: 45 },
  },
  {
    rule: '429 with IETF ratelimit-reset delta seconds',
    value: new HttpError({ status: 429, headers: { 'ratelimit-reset': '12' } }),
    expected: { error_type: 'rate_limited', retry_after_s: 12 },
  },
  {
    rule: '429 without any header → rate_limited, no retry_after_s',
    value: new HttpError({ status: 429 }),
    expected: { error_type: 'rate_limited', retryable: true },
    absent: ['retry_after_s'],
  },
  {
    rule: '404 → not_found with the service message',
    value: new HttpError({ status: 404, body: { message: 'Not Found' } }),
    expected: {
      error_type: 'not_found',
      user_message: 'The item was not found. The service said: Not Found',
    },
  },
  {
    rule: '409 → conflict',
    value: new HttpError({ status: 409, body: { error: { message: 'Reference already exists' } } }),
    expected: { error_type: 'conflict', user_message: expect.stringContaining('Reference already exists') },
  },
  {
    rule: '422 → invalid_arguments with the service errors',
    value: new HttpError({
      status: 422,
      body: { message: 'Validation Failed', errors: [{ message: 'title is too long' }] },
    }),
    expected: { error_type: 'invalid_arguments', user_message: expect.stringContaining('Validation Failed') },
  },
  {
    rule: '400 → invalid_arguments',
    value: new HttpError({ status: 400, body: 'missing parameter: channel' }),
    expected: {
      error_type: 'invalid_arguments',
      user_message: expect.stringContaining('missing parameter: channel'),
    },
  },
  {
    rule: '500 → upstream_error, retryable, HTML body left out',
    value: new HttpError({ status: 500, body: '<html><body>Internal Server Error</body></html>' }),
    expected: {
      error_type: 'upstream_error',
      retryable: true,
      user_message:
        'The service had a problem on its side and did not finish the request; try again in a moment.',
    },
  },
  {
    rule: '503 with Retry-After → upstream_error with retry_after_s',
    value: new HttpError({ status: 503, headers: { 'retry-after': '5' } }),
    expected: { error_type: 'upstream_error', retryable: true, retry_after_s: 5 },
  },
  {
    rule: '504 → timeout',
    value: new HttpError({ status: 504 }),
    expected: { error_type: 'timeout', retryable: true },
  },
  {
    rule: 'other 4xx (418) → upstream_error, not retryable',
    value: new HttpError({ status: 418 }),
    expected: { error_type: 'upstream_error', retryable: false },
  },
  {
    rule: 'a fetch Response is classified by status and headers',
    value: new Response(null, { status: 429, headers: { 'retry-after': '7' } }),
    expected: { error_type: 'rate_limited', retry_after_s: 7, meta: { status_code: 429 } },
  },
  {
    rule: 'an SDK error with status and response.headers (Octokit shape)',
    value: Object.assign(new Error('Not Found'), {
      name: 'HttpError',
      status: 404,
      response: { headers: {}, data: { message: 'Not Found' } },
    }),
    expected: { error_type: 'not_found' },
  },
  {
    rule: 'a plain response-like object { status, headers, body }',
    value: { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: {} },
    expected: { error_type: 'invalid_credentials' },
  },
  {
    rule: 'a service message carrying a stack trace keeps only the first line',
    value: new HttpError({ status: 500, body: { message: 'boom\n    at handler (/srv/app/index.js:10:5)' } }),
    expected: {
      error_type: 'upstream_error',
      user_message:
        'The service had a problem on its side and did not finish the request; try again in a moment. The service said: boom',
    },
  },
  // Network errors, timeouts, aborts
  {
    rule: 'ECONNREFUSED code → network_error',
    value: codeError('ECONNREFUSED'),
    expected: { error_type: 'network_error', retryable: true },
  },
  {
    rule: 'undici "fetch failed" with nested cause code → network_error',
    value: new TypeError('fetch failed', {
      cause: codeError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.github.com'),
    }),
    expected: { error_type: 'network_error' },
  },
  {
    rule: 'doubly nested cause inside an AggregateError → network_error',
    value: new TypeError('fetch failed', {
      cause: new AggregateError([codeError('ECONNRESET')], 'all attempts failed'),
    }),
    expected: { error_type: 'network_error' },
  },
  {
    rule: '"fetch failed" without a recognisable cause → network_error',
    value: new TypeError('fetch failed'),
    expected: { error_type: 'network_error' },
  },
  {
    rule: 'ETIMEDOUT in a cause → timeout',
    value: new Error('request failed', { cause: codeError('ETIMEDOUT') }),
    expected: { error_type: 'timeout', retryable: true },
  },
  {
    rule: 'undici headers timeout code → timeout',
    value: codeError('UND_ERR_HEADERS_TIMEOUT'),
    expected: { error_type: 'timeout' },
  },
  {
    rule: 'TimeoutError (AbortSignal.timeout) → timeout',
    value: abortReason('TimeoutError'),
    expected: { error_type: 'timeout', user_message: 'The request took too long and was stopped.' },
  },
  {
    rule: 'AbortError (the caller cancelled) → cancelled, not retryable',
    value: abortReason('AbortError'),
    expected: {
      error_type: 'cancelled',
      user_message: 'The request was cancelled before it finished.',
      retryable: false,
    },
  },
  {
    rule: 'AbortError wrapped as a cause → cancelled',
    value: new Error('SDK call failed', { cause: abortReason('AbortError') }),
    expected: { error_type: 'cancelled', retryable: false },
  },
  {
    rule: 'TimeoutError wrapped as a cause → timeout',
    value: new Error('SDK call failed', { cause: abortReason('TimeoutError') }),
    expected: { error_type: 'timeout' },
  },
  // Zod
  {
    rule: 'zod: missing required fields → needs_input, one question per field from context',
    value: zodFailure({}),
    context: { ...context, questions, input: {} },
    expected: {
      error_type: 'needs_input',
      missing: [
        { field: 'to', question: 'Who should receive it?' },
        { field: 'text', question: 'What should the message say?' },
      ],
      user_message: 'Who should receive it? What should the message say?',
    },
    absent: ['issues'],
  },
  {
    rule: 'zod: missing field without a question → a generic plain question',
    value: zodFailure({ text: 'hi' }),
    context: { connector: 'slack' },
    expected: {
      error_type: 'needs_input',
      missing: [{ field: 'to', question: 'What should I use for to?' }],
    },
  },
  {
    rule: 'zod: wrong type → invalid_arguments with the path',
    value: zodFailure({ to: 'ana', text: 'hi', count: 'three' }),
    context: { ...context, questions },
    expected: {
      error_type: 'invalid_arguments',
      issues: [{ path: 'count', message: expect.stringContaining('expected number') }],
    },
    absent: ['missing'],
  },
  {
    rule: 'zod: missing and wrong type together → invalid_arguments that also lists the missing field',
    value: zodFailure({ text: 42 }),
    context: { ...context, questions },
    expected: {
      error_type: 'invalid_arguments',
      issues: [{ path: 'text', message: expect.stringContaining('expected string') }],
      missing: [{ field: 'to', question: 'Who should receive it?' }],
    },
  },
  {
    rule: 'zod: a missing enum field is told apart by the raw input',
    value: (() => {
      const result = z.object({ state: z.enum(['open', 'closed']) }).safeParse({});
      return result.error;
    })(),
    context: { input: {}, questions: { state: 'Open or closed issues?' } },
    expected: {
      error_type: 'needs_input',
      missing: [{ field: 'state', question: 'Open or closed issues?' }],
    },
  },
  // PatchbayError, envelopes, unknowns
  {
    rule: 'PatchbayError whose code is an error type → that type with its message',
    value: new PatchbayError('conflict', 'The branch already exists.'),
    expected: { error_type: 'conflict', user_message: 'The branch already exists.', connector: 'github' },
  },
  {
    rule: 'PatchbayError with another code → internal_error, message hidden',
    value: new PatchbayError('invalid_definition', 'tool "x": secret internals'),
    expected: {
      error_type: 'internal_error',
      user_message:
        'This action failed because of an unexpected error, so it may not have been completed; try again, and report the problem if it keeps happening.',
    },
  },
  {
    rule: 'a success envelope passes through',
    value: success({ id: 7 }),
    expected: { ok: true, data: { id: 7 } },
  },
  {
    rule: 'an error envelope passes through and gains the connector',
    value: failure('not_found', { userMessage: 'No such repo.' }),
    expected: { ok: false, error_type: 'not_found', user_message: 'No such repo.', connector: 'github' },
  },
  {
    rule: 'unknown keys of an envelope (a stack) are dropped',
    value: { ...failure('conflict'), stack: 'Error: x\n    at y (/srv/z.js:1:1)' },
    expected: { error_type: 'conflict' },
    absent: ['stack'],
  },
  {
    rule: 'a plain Error → internal_error without its message or stack',
    value: new Error('connect to db at postgres://admin:hunter2@10.0.0.5 failed'),
    expected: {
      error_type: 'internal_error',
      user_message:
        'This action failed because of an unexpected error, so it may not have been completed; try again, and report the problem if it keeps happening.',
    },
  },
  {
    rule: 'a string → internal_error',
    value: 'Something at /srv/app/secret.js exploded',
    expected: { error_type: 'internal_error' },
  },
  { rule: 'null → internal_error', value: null, expected: { error_type: 'internal_error' } },
  { rule: 'undefined → internal_error', value: undefined, expected: { error_type: 'internal_error' } },
  { rule: 'a number → internal_error', value: 42, expected: { error_type: 'internal_error' } },
  {
    rule: 'an object with a throwing getter → internal_error',
    value: throwingGetter,
    expected: { error_type: 'internal_error' },
  },
  {
    rule: 'a hostile Proxy → internal_error',
    value: hostileProxy,
    expected: { error_type: 'internal_error' },
  },
];

describe('toEnvelope mapping rules', () => {
  it.each(rows)('$rule', ({ value, context: rowContext, expected, absent }) => {
    const envelope = toEnvelope(value, rowContext ?? context);
    expect(isEnvelope(envelope)).toBe(true);
    expect(envelope).toMatchObject(expected);
    for (const key of absent ?? []) expect(envelope).not.toHaveProperty(key);
    const text = JSON.stringify(envelope);
    // No stack, file path or internals in any envelope.
    expect(text).not.toMatch(/\n\s+at |\/srv\/|internals|hunter2|exploded/);
  });
});

describe('toEnvelope metadata and context', () => {
  it('adds tool, correlation id and status code to meta', () => {
    const envelope = toEnvelope(new HttpError({ status: 404 }), {
      tool: 'github_get_issue',
      correlationId: 'c-1',
    });
    expect(envelope.meta).toEqual({ status_code: 404, tool: 'github_get_issue', correlation_id: 'c-1' });
  });

  it('adds the setup URL to a passed-through envelope the user fixes by reconnecting', () => {
    expect(toEnvelope(failure('invalid_credentials'), context)).toMatchObject({
      setup_url: context.setupUrl,
    });
    expect(toEnvelope(failure('not_found'), context)).not.toHaveProperty('setup_url');
  });

  it('keeps the connector of an envelope that already names one', () => {
    const envelope = toEnvelope(failure('not_found', { connector: 'slack' }), context);
    expect(envelope).toMatchObject({ connector: 'slack' });
  });

  it('survives a context whose secrets iterable throws', () => {
    const secrets: Iterable<string> = {
      *[Symbol.iterator]() {
        yield 'first-secret-value';
        throw new Error('iterator broke');
      },
    };
    const envelope = toEnvelope(new HttpError({ status: 404, body: { message: 'first-secret-value' } }), {
      secrets,
    });
    expect(envelope).toMatchObject({ error_type: 'not_found' });
    expect(JSON.stringify(envelope)).not.toContain('first-secret-value');
  });

  it('maps an error from a duplicated copy of the package through the Symbol.for brand', () => {
    const foreign = Object.assign(new Error('Too many'), {
      code: 'http_error',
      status: 429,
      headers: new Headers(),
    });
    Object.defineProperty(foreign, Symbol.for('patchbay.error'), { value: true });
    expect(toEnvelope(foreign)).toMatchObject({ error_type: 'rate_limited' });
  });
});

const explodes = (): never => {
  throw new Error('toString exploded');
};

describe('toEnvelope regressions found by its property tests', () => {
  it('keeps error_type and field names intact when a secret is part of them (seed -1312315850)', () => {
    const zodShaped = { name: 'ZodError', issues: [], code: [], cause: null, message: [] };
    const envelope = toEnvelope(zodShaped, {
      connector: 'github',
      secrets: ['ents'],
      tool: 'github_get_issue',
    });
    expect(isEnvelope(envelope)).toBe(true);
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments', connector: 'github' });
    // The secret still goes from free text: the default sentence "...invalid arguments." holds it.
    expect(envelope.ok === false && envelope.user_message).not.toContain('ents');
  });

  it.each(['type', 'error_type', 'user_message', 'retryable', 'message', 'tool', 'meta'])(
    'keeps the envelope readable when the secret is the field name "%s"',
    (secret) => {
      const envelope = toEnvelope(Int16Array.from([]), { secrets: [secret], tool: 'github_get_issue' });
      expect(isEnvelope(envelope)).toBe(true);
      expect(envelope).toMatchObject({ ok: false, error_type: 'internal_error' });
      expect(envelope.meta).toEqual({ tool: 'github_get_issue' });
    },
  );

  it('maps a zod-shaped error whose issue path is an array proxy that throws to invalid_arguments', () => {
    const path = new Proxy([], {
      get() {
        throw new Error('path trap');
      },
    });
    const envelope = toEnvelope({ name: 'ZodError', issues: [{ path }] });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
  });

  it('maps zod-shaped errors with unreadable, odd or missing issue fields to invalid_arguments', () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const issues = [
      null,
      42,
      revoked,
      throwingGetter,
      { path: [{ toString: explodes }], message: { toString: explodes } },
      { path: 'to', message: 'Required', code: ['invalid_type'] },
    ];
    const envelope = toEnvelope(
      { name: 'ZodError', issues, message: Symbol('odd') },
      { questions: hostileProxy as never },
    );
    expect(isEnvelope(envelope)).toBe(true);
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
  });

  it('uses the default sentence when a forged PatchbayError carries a message that is not a string', () => {
    const forged = { code: 'not_found', message: { toString: () => 'object message' } };
    Object.defineProperty(forged, Symbol.for('patchbay.error'), { value: true });
    const envelope = toEnvelope(forged);
    expect(isEnvelope(envelope)).toBe(true);
    expect(envelope).toMatchObject({
      error_type: 'not_found',
      user_message: 'The requested item was not found.',
    });
  });
});

describe('retryAfterSeconds', () => {
  it.each<[string, Record<string, string>, number | undefined]>([
    ['delta seconds', { 'retry-after': '30' }, 30],
    ['fractional seconds round up', { 'retry-after': '1.2' }, 2],
    ['HTTP date in the future', { 'retry-after': 'Sat, 21 Nov 2026 15:00:10 GMT' }, 10],
    ['HTTP date in the past clamps to 0', { 'retry-after': 'Sat, 21 Nov 2026 14:00:00 GMT' }, 0],
    ['empty header is ignored', { 'retry-after': ' ' }, undefined],
    ['garbage is ignored', { 'retry-after': 'soon' }, undefined],
    ['GitHub epoch seconds', { 'x-ratelimit-reset': String(nowSeconds + 61) }, 61],
    ['Retry-After wins over reset', { 'retry-after': '3', 'x-ratelimit-reset': String(nowSeconds + 61) }, 3],
    ['no header', {}, undefined],
  ])('%s', (_name, headers, expected) => {
    expect(retryAfterSeconds(headers, now)).toBe(expected);
    expect(retryAfterSeconds(new Headers(headers), now)).toBe(expected);
  });
});

describe('success envelopes take a fast path with the same result as the schema', () => {
  const cases: [string, unknown][] = [
    ['bare', { ok: true, data: { id: 1 } }],
    ['no data key', { ok: true }],
    ['extra top-level keys (a stack) are dropped', { ok: true, data: 'x', stack: 'Error: at secret.js:1' }],
    [
      'metadata kept, unknown metadata keys too',
      { ok: true, data: [1], meta: { tool: 't', duration_ms: 2, slack_error: 'x' } },
    ],
    ['metadata with a wrong type goes through the schema', { ok: true, data: 1, meta: { tool: 42 } }],
    [
      'a class instance goes through the schema',
      Object.assign(Object.create({ inherited: true }), { ok: true, data: 2 }),
    ],
  ];
  it.each(cases)('%s', (_name, value) => {
    const parsed = envelopeSchema.safeParse(value);
    const expected = parsed.success ? JSON.parse(JSON.stringify(parsed.data)) : undefined;
    const actual = JSON.parse(JSON.stringify(toEnvelope(value)));
    if (expected) expect(actual).toEqual(expected);
    else expect(actual).toMatchObject({ ok: false });
  });
});

describe('the metadata of a success passed in', () => {
  it('is read, never changed or handed back as the same object', () => {
    const extras = { trace: 'x', nested: { id: 1 } };
    const cases = [{ tool: 't', correlation_id: 'c-1' }, { duration_ms: 3 }, { tool: 't', ...extras }, {}];
    for (const meta of cases) {
      const before = structuredClone(meta);
      const value = { ok: true, data: 1, meta };
      const envelope = toEnvelope(value, { tool: 'other', correlationId: 'c-2' });
      expect(meta).toEqual(before);
      expect(envelope.meta).not.toBe(meta);
      expect(envelope.meta).toMatchObject({
        tool: meta.tool ?? 'other',
        correlation_id: meta.correlation_id ?? 'c-2',
      });
      if ('nested' in meta) expect(envelope.meta?.nested).not.toBe(meta.nested);
      expect(value.meta).toBe(meta);
    }
  });
});

describe('a network failure of a call that is not harmless to repeat', () => {
  const lost =
    'The connection to the service was lost during the request. It may still have taken effect: check before running it again.';
  const droppedAfterSending = [
    ['a connection reset', new TypeError('fetch failed', { cause: codeError('ECONNRESET') })],
    ['a socket closed mid-answer', new TypeError('fetch failed', { cause: codeError('UND_ERR_SOCKET') })],
    ['a broken pipe', codeError('EPIPE')],
    ['"fetch failed" with no cause to tell', new TypeError('fetch failed')],
  ] as const;
  const neverSent = [
    ['a refused connection', new TypeError('fetch failed', { cause: codeError('ECONNREFUSED') })],
    ['no such host', codeError('ENOTFOUND')],
    ['a connect timeout', new TypeError('fetch failed', { cause: codeError('UND_ERR_CONNECT_TIMEOUT') })],
    ['every address refused', new AggregateError([codeError('ECONNREFUSED'), codeError('ECONNREFUSED')])],
  ] as const;

  it.each(droppedAfterSending)('is not retryable after %s: the write may have happened', (_case, error) => {
    expect(toEnvelope(error, { harmlessToRepeat: false })).toEqual({
      ok: false,
      error_type: 'network_error',
      user_message: lost,
      retryable: false,
    });
    // A read (or a caller that does not say) may simply try again.
    for (const harmlessToRepeat of [true, undefined]) {
      expect(toEnvelope(error, { harmlessToRepeat })).toMatchObject({
        error_type: 'network_error',
        retryable: true,
      });
    }
  });

  it('a write cancelled mid-request says it may still have taken effect', () => {
    expect(toEnvelope(abortReason('AbortError'), { harmlessToRepeat: false })).toEqual({
      ok: false,
      error_type: 'cancelled',
      user_message:
        'The request was cancelled before it finished. It may still have taken effect: check before running it again.',
      retryable: false,
    });
  });

  it.each(neverSent)('stays retryable after %s: the request never left', (_case, error) => {
    expect(toEnvelope(error, { harmlessToRepeat: false })).toMatchObject({
      error_type: 'network_error',
      user_message: 'The service could not be reached.',
      retryable: true,
    });
  });
});
