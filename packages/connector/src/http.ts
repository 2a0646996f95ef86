import { HttpError, PatchbayError, retryAfterSeconds } from '@patchbay/envelope';
import type { Credentials, VerifyResult } from './credentials.js';

/** Settings every connector factory accepts (after vercel/ai's provider settings). */
export interface ConnectorSettings {
  /** API base URL: GitHub Enterprise, a Jira site, a proxy. */
  baseUrl?: string;
  /** Custom fetch (tests, proxies, tracing). Resolved at call time, so msw and late patches apply. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** One HTTP call a tool makes. */
export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Path relative to the base URL (leading slash optional), or an absolute URL on the base URL's
   * origin (a pagination link). Dot segments and other hosts are refused: credentials go only there.
   */
  path: string;
  query?: Record<string, string | number | boolean | undefined | readonly string[]>;
  /** JSON body. */
  json?: unknown;
  /** `application/x-www-form-urlencoded` body (Twilio, Slack); an array value repeats the key (Twilio `MediaUrl`). */
  form?: Record<string, string | number | boolean | undefined | readonly string[]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A successful response: parsed body (JSON when the service says so, else text) and headers. */
export interface HttpResult<T> {
  status: number;
  headers: Headers;
  data: T;
}

/** A small fetch client shared by connectors: base URL, auth headers, JSON/form bodies, `HttpError` on non-2xx. */
export interface HttpClient {
  request<T = unknown>(credentials: Credentials, request: HttpRequest): Promise<HttpResult<T>>;
}

function compact(
  record: Record<string, string | number | boolean | undefined | readonly string[]>,
): [string, string][] {
  return Object.entries(record).flatMap(([key, value]): [string, string][] => {
    if (value === undefined) return [];
    if (Array.isArray(value)) return value.map((item) => [key, String(item)]);
    return [[key, String(value)]];
  });
}

// `..` and `.` segments, also percent-encoded: the URL parser resolves them, so a path built from
// model input (`owner: '..'`) could otherwise climb out of the resource it names.
const dotSegment = /^(?:\.|%2e){1,2}$/i;

/** The origin of a base URL; a setting that is not an http(s) URL fails when the connector is created. */
function originOf(baseUrl: string): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new PatchbayError(
      'invalid_settings',
      'baseUrl must be an http(s) URL, e.g. https://api.example.com (check the connector settings).',
    );
  }
  return url.origin;
}

/**
 * The URL of one request. Refuses what would send the credentials somewhere the connector did not
 * mean: another origin than the base URL's, or a path that climbs out with dot segments.
 */
function requestUrl(baseUrl: string, baseOrigin: string, path: string): URL {
  const absolute = /^https?:\/\//i.test(path);
  const raw = absolute ? path : `${baseUrl}/${path.replace(/^\/+/, '')}`;
  const pathPart = raw.replace(/^https?:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '';
  if (pathPart.split('/').some((segment) => dotSegment.test(segment))) {
    throw new PatchbayError('invalid_arguments', 'A value in the request path is not a valid name or id.');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PatchbayError('invalid_arguments', 'A value in the request path is not a valid name or id.');
  }
  if (absolute && url.origin !== baseOrigin) {
    throw new PatchbayError(
      'internal_error',
      'The connector asked to send a request outside its service; it was not sent.',
    );
  }
  return url;
}

/**
 * Creates the HTTP client a connector's tools share. `authorize` turns the subject's credentials
 * into headers; it is called per request, so credentials never live in the client.
 */
export function createHttpClient(options: {
  settings: ConnectorSettings;
  defaultBaseUrl: string;
  authorize: (credentials: Credentials) => Record<string, string>;
  /** Headers the service always wants (API version, user agent). */
  headers?: Record<string, string>;
}): HttpClient {
  const baseUrl = (options.settings.baseUrl ?? options.defaultBaseUrl).replace(/\/+$/, '');
  const baseOrigin = originOf(baseUrl);
  return {
    async request<T>(credentials: Credentials, request: HttpRequest): Promise<HttpResult<T>> {
      const fetchImpl = options.settings.fetch ?? globalThis.fetch;
      const url = requestUrl(baseUrl, baseOrigin, request.path);
      for (const [key, value] of compact(request.query ?? {})) url.searchParams.append(key, value);
      const headers = new Headers({
        accept: 'application/json',
        ...options.headers,
        ...options.settings.headers,
        ...request.headers,
        ...options.authorize(credentials),
      });
      let body: string | undefined;
      if (request.json !== undefined) {
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
        body = JSON.stringify(request.json);
      } else if (request.form !== undefined) {
        if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
        body = new URLSearchParams(compact(request.form)).toString();
      }
      const response = await fetchImpl(url, {
        method: request.method ?? 'GET',
        headers,
        body,
        signal: request.signal,
      });
      if (!response.ok) throw await HttpError.fromResponse(response);
      const text = response.status === 204 ? '' : await response.text();
      const isJson = /json/i.test(response.headers.get('content-type') ?? '') || /^\s*[[{]/.test(text);
      let data: unknown = text;
      if (text && isJson) {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      }
      return { status: response.status, headers: response.headers, data: (text ? data : undefined) as T };
    },
  };
}

/** Maps an error thrown while verifying credentials to a `VerifyResult`; never throws, never leaks. */
export function verifyFailure(error: unknown): VerifyResult {
  // `isHttpError`, not `instanceof`: a connector built against another copy of the envelope package
  // throws HttpErrors this copy's class does not recognise.
  if (HttpError.isHttpError(error)) {
    if (error.status === 401 || error.status === 403) {
      // GitHub's secondary limit is a 403 with Retry-After, its primary one a 403 with no requests left.
      const rateLimited =
        error.headers.get('x-ratelimit-remaining') === '0' || error.headers.has('retry-after');
      if (error.status === 403 && rateLimited) {
        return {
          valid: false,
          reason: 'rate_limited',
          message: 'The service is rate limiting requests.',
          retryAfterS: retryAfterSeconds(error.headers),
        };
      }
      return {
        valid: false,
        reason: 'invalid_credentials',
        message: 'The service rejected these credentials.',
      };
    }
    if (error.status === 429) {
      return {
        valid: false,
        reason: 'rate_limited',
        message: 'The service is rate limiting requests.',
        retryAfterS: retryAfterSeconds(error.headers),
      };
    }
    return { valid: false, reason: 'unreachable', message: `The service answered HTTP ${error.status}.` };
  }
  return { valid: false, reason: 'unreachable', message: 'The service could not be reached.' };
}
