import type { ConnectorSettings, Credentials } from '@patchbay/connector';
import { HttpError, PatchbayError } from '@patchbay/envelope';

/** One HTTP call a tool makes. `Scope` narrows {@link HttpRequest.requiredScopes} to the service's scope names. */
export interface HttpRequest<Scope extends string = string> {
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
  /**
   * The scopes (permissions, capabilities) this call needs, as the tool contract's `requiredScopes`
   * names them. Never sent: the connector's `mapError` reads them, because many services refuse a
   * call without saying which permission was missing.
   */
  requiredScopes?: readonly Scope[];
}

/** A successful response: parsed body (JSON when the service says so, else text) and headers. */
export interface HttpResult<T> {
  status: number;
  headers: Headers;
  data: T;
}

/** A small fetch client shared by connectors: base URL, auth headers, JSON/form bodies, `HttpError` on non-2xx. */
export interface HttpClient<Scope extends string = string> {
  /** Origin (`scheme://host[:port]`) of the configured base URL: the only place credentials are sent. */
  readonly origin: string;
  /** Origin of the connector's default base URL (what it uses without a `baseUrl` setting). */
  readonly defaultOrigin: string;
  /** Sends one request with the subject's credentials; throws what `mapError` makes of a non-2xx answer. */
  request<T = unknown>(credentials: Credentials, request: HttpRequest<Scope>): Promise<HttpResult<T>>;
}

/**
 * A service's own error signals, translated in one place. Called with the `HttpError` of every
 * non-2xx answer and the request that got it; what it returns is thrown in its place:
 * - the same or a rewritten `HttpError` — its status, headers and `missingScopes` are what the
 *   envelope mapping and `verifyFailure` read (a 403 that is really a bad key becomes a 401);
 * - a `PatchbayError` whose code is an envelope error type (a used-up quota: `rate_limited`);
 * - an `ErrorEnvelope` (e.g. `needs_input` for a phone number the service rejects), which the tool
 *   call returns as it is.
 */
export type MapError<Scope extends string = string> = (
  error: HttpError,
  request: HttpRequest<Scope>,
) => unknown;

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

/** Whether a URL host is loopback: 127.0.0.0/8, `::1` or `localhost` (a `localhost` name included). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  // The WHATWG parser has already normalised IPv4 forms (`127.1`, `0x7f.0.0.1`) to dotted quads.
  return /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * The origin of a base URL. A setting that is not an http(s) URL fails when the connector is
 * created, and so does plain http to a host that is not loopback unless `allowInsecureHttp` says so:
 * the credentials would otherwise cross the network in clear text.
 */
function originOf(baseUrl: string, allowInsecureHttp: boolean): string {
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
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHostname(url.hostname)) {
    throw new PatchbayError(
      'insecure_base_url',
      `baseUrl ${url.origin} is plain http to a host that is not loopback: credentials would be sent in clear text. Use https, or set allowInsecureHttp: true in the connector settings if this network is trusted.`,
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

/** Options of {@link createHttpClient}. */
export interface HttpClientOptions<Scope extends string = string> {
  settings: ConnectorSettings;
  defaultBaseUrl: string;
  /** Turns the subject's credentials into headers; called per request, so credentials never live in the client. */
  authorize: (credentials: Credentials) => Record<string, string>;
  /** Headers the service always wants (API version, user agent). */
  headers?: Record<string, string>;
  /** The service's error signals (see {@link MapError}); without it a non-2xx answer throws its `HttpError`. */
  mapError?: MapError<Scope>;
}

/** Creates the HTTP client a connector's tools share. */
export function createHttpClient<Scope extends string = string>(
  options: HttpClientOptions<Scope>,
): HttpClient<Scope> {
  const baseUrl = (options.settings.baseUrl ?? options.defaultBaseUrl).replace(/\/+$/, '');
  const allowInsecureHttp = options.settings.allowInsecureHttp === true;
  const baseOrigin = originOf(baseUrl, allowInsecureHttp);
  return {
    origin: baseOrigin,
    // The default is the connector author's constant, checked like a setting all the same.
    defaultOrigin: originOf(options.defaultBaseUrl.replace(/\/+$/, ''), allowInsecureHttp),
    async request<T>(credentials: Credentials, request: HttpRequest<Scope>): Promise<HttpResult<T>> {
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
      if (!response.ok) {
        const error = await HttpError.fromResponse(response);
        throw options.mapError ? options.mapError(error, request) : error;
      }
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
