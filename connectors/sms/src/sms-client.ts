import {
  type ConnectorSettings,
  type Credentials,
  createHttpClient,
  type HttpRequest,
  type HttpResult,
} from '@patchbay/connector';
import { HttpError } from '@patchbay/envelope';

/** Where the Twilio REST API lives unless `baseUrl` says otherwise (a regional edge, a proxy). */
export const defaultTwilioBaseUrl = 'https://api.twilio.com';

/** The Twilio REST API version the messaging resources live under. */
export const twilioApiVersion = '2010-04-01';

// Twilio's 429 (code 20429) usually names no wait; its guidance is to back off and retry, so the
// envelope suggests the first step of that backoff rather than leaving the wait open.
const defaultRetryAfterS = 1;

/** Twilio's error body: `{ code, message, more_info, status }`. */
export interface TwilioErrorBody {
  code?: number;
  message?: string;
  more_info?: string;
  status?: number;
}

/** The Twilio error code of a failed call (20003, 21211, ...), if the body carries one. */
export function twilioErrorCode(error: unknown): number | undefined {
  if (!HttpError.isHttpError(error)) return undefined;
  const code = (error.body as TwilioErrorBody | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Twilio's own sentence for a failed call, if the body carries one. */
export function twilioErrorMessage(error: unknown): string | undefined {
  if (!HttpError.isHttpError(error)) return undefined;
  const message = (error.body as TwilioErrorBody | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** Adds the backoff wait to a 429 that names none, so the envelope carries `retry_after_s`. */
function withRetryAfter(error: unknown): unknown {
  if (!HttpError.isHttpError(error) || error.status !== 429 || error.headers.has('retry-after')) return error;
  const headers = new Headers(error.headers);
  headers.set('retry-after', String(defaultRetryAfterS));
  return new HttpError({ status: 429, headers, body: error.body, message: error.message });
}

/**
 * The user name of Twilio's HTTP Basic auth: an API key SID (`SK...`) when the credentials carry
 * one, else the Account SID. The password is the matching secret (`auth_token`).
 */
export function twilioUsername(credentials: Credentials): string {
  return credentials.api_key_sid || credentials.account_sid || '';
}

/** The path of an account's resource: `/2010-04-01/Accounts/{AccountSid}/{resource}.json`. */
export function accountPath(credentials: Credentials, resource = ''): string {
  const account = encodeURIComponent(credentials.account_sid ?? '');
  return `/${twilioApiVersion}/Accounts/${account}${resource ? `/${resource}` : ''}.json`;
}

// UTF-8 then base64 without Buffer, so the connector also runs on edge runtimes.
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The HTTP client the SMS tools share. */
export interface TwilioClient {
  request<T = unknown>(credentials: Credentials, request: HttpRequest): Promise<HttpResult<T>>;
}

/** Creates the Twilio client: HTTP Basic auth per request, form bodies, `HttpError` on failure. */
export function createTwilioClient(settings: ConnectorSettings): TwilioClient {
  const http = createHttpClient({
    settings,
    defaultBaseUrl: defaultTwilioBaseUrl,
    authorize: (credentials) => ({
      authorization: `Basic ${base64(`${twilioUsername(credentials)}:${credentials.auth_token ?? ''}`)}`,
    }),
    headers: { 'user-agent': 'patchbay-connector-sms' },
  });
  return {
    async request<T>(credentials: Credentials, request: HttpRequest): Promise<HttpResult<T>> {
      try {
        return await http.request<T>(credentials, request);
      } catch (error) {
        throw withRetryAfter(error);
      }
    },
  };
}
