import type { ConnectorSettings, Credentials } from '@patchbay/connector';
import type { ErrorEnvelope } from '@patchbay/envelope';
import { createHttpClient } from '@patchbay/helpers';
import { type SlackErrorBody, slackErrorEnvelope } from './slack-errors.js';

/** Where the Slack Web API lives unless `baseUrl` says otherwise (a proxy, a test server). */
export const defaultSlackBaseUrl = 'https://slack.com/api';

/** Arguments of one Web API method call. */
export interface SlackCall {
  /** `GET` sends arguments as the query string (read methods); `POST` as a form body. */
  httpMethod?: 'GET' | 'POST';
  arguments?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

/** The outcome of a Web API call: Slack's body when `ok: true`, else the envelope its error code means. */
export type SlackCallResult<T> =
  | { ok: true; data: T; headers: Headers }
  | { ok: false; envelope: ErrorEnvelope; error: string | undefined };

/** Calls Slack Web API methods (`chat.postMessage`, …) with a bot or user token. */
export interface SlackClient {
  /** Origin of the configured base URL: the only place credentials are sent. */
  readonly origin: string;
  /** Origin of the default base URL. */
  readonly defaultOrigin: string;
  call<T>(credentials: Credentials, method: string, call?: SlackCall): Promise<SlackCallResult<T>>;
}

/**
 * The client every Slack tool shares. Slack answers most errors with HTTP 200 and
 * `{ ok: false, error }`: those come back as an envelope by error code. Non-2xx answers (429 with
 * `Retry-After`, 5xx) throw an `HttpError` that the envelope mapping reads.
 */
export function createSlackClient(settings: ConnectorSettings): SlackClient {
  const http = createHttpClient({
    settings,
    defaultBaseUrl: defaultSlackBaseUrl,
    authorize: (credentials) => ({ authorization: `Bearer ${credentials.token ?? ''}` }),
    headers: { 'user-agent': 'patchbay-connector-slack' },
  });
  return {
    origin: http.origin,
    defaultOrigin: http.defaultOrigin,
    async call<T>(credentials: Credentials, method: string, call: SlackCall = {}) {
      const httpMethod = call.httpMethod ?? 'POST';
      const { data, headers } = await http.request<(T & { ok: true }) | SlackErrorBody | undefined>(
        credentials,
        {
          method: httpMethod,
          path: `/${method}`,
          // Form bodies are what every Web API method accepts; JSON would need a charset Slack checks.
          ...(httpMethod === 'GET' ? { query: call.arguments } : { form: call.arguments ?? {} }),
          signal: call.signal,
        },
      );
      if (data !== null && typeof data === 'object' && data.ok === true) {
        return { ok: true, data: data as T, headers } satisfies SlackCallResult<T>;
      }
      const body: SlackErrorBody =
        data !== null && typeof data === 'object' ? (data as SlackErrorBody) : { ok: false };
      return {
        ok: false,
        envelope: slackErrorEnvelope(body, { headers }),
        error: typeof body.error === 'string' ? body.error : undefined,
      } satisfies SlackCallResult<T>;
    },
  };
}
