import {
  type ConnectorSettings,
  type Credentials,
  createHttpClient,
  type HttpRequest,
  type HttpResult,
} from '@patchbay/connector';
import { HttpError, PatchbayError } from '@patchbay/envelope';

/** Where the Resend API lives unless `baseUrl` says otherwise. */
export const defaultResendBaseUrl = 'https://api.resend.com';

/** One Resend call, with the scopes it needs so a refusal can name them. */
export interface ResendRequest extends HttpRequest {
  /** Scopes the call needs; reported as missing when Resend says the key is sending-only. */
  requiredScopes?: string[];
}

/** The HTTP client the email tools share; it speaks Resend's error names. */
export interface ResendClient {
  request<T = unknown>(credentials: Credentials, request: ResendRequest): Promise<HttpResult<T>>;
}

/** Resend's error body: `{ statusCode, name, message }`. */
export interface ResendErrorBody {
  statusCode?: number | null;
  name?: string;
  message?: string;
}

/** The `name` of a Resend error body (`validation_error`, `restricted_api_key`, ...), if any. */
export function resendErrorName(error: unknown): string | undefined {
  if (!HttpError.isHttpError(error)) return undefined;
  const body = error.body as ResendErrorBody | undefined;
  return typeof body?.name === 'string' ? body.name : undefined;
}

/**
 * Resend's statuses for key problems run against the usual meaning: a wrong or revoked key is
 * 403 `invalid_api_key`, while 401 `restricted_api_key` is a valid sending-only key used for
 * anything else. Re-states both in plain HTTP terms so the envelope mapping (and `verifyFailure`)
 * reads them right, and names a used-up sending quota; every other error passes through unchanged.
 */
export function normalizeResendError(error: unknown, requiredScopes: string[] = []): unknown {
  if (!HttpError.isHttpError(error)) return error;
  const name = resendErrorName(error);
  if (name === 'invalid_api_key' || name === 'missing_api_key') {
    return new HttpError({ status: 401, headers: error.headers, body: error.body, message: error.message });
  }
  if (name === 'restricted_api_key') {
    return new HttpError({
      status: 403,
      headers: error.headers,
      body: error.body,
      message: error.message,
      missingScopes: requiredScopes.length > 0 ? requiredScopes : undefined,
    });
  }
  if (name === 'daily_quota_exceeded' || name === 'monthly_quota_exceeded') {
    // A quota is not a per-second limit: say which one, so nobody retries in a loop.
    const period = name === 'daily_quota_exceeded' ? 'daily' : 'monthly';
    return new PatchbayError(
      'rate_limited',
      `The Resend account has used up its ${period} sending quota; no more emails can be sent until it resets.`,
      { cause: error },
    );
  }
  return error;
}

/** Creates the Resend client: bearer API key per request, `HttpError`s in plain HTTP terms. */
export function createResendClient(settings: ConnectorSettings): ResendClient {
  const http = createHttpClient({
    settings,
    defaultBaseUrl: defaultResendBaseUrl,
    authorize: (credentials) => ({ authorization: `Bearer ${credentials.token ?? ''}` }),
    headers: { 'user-agent': 'patchbay-connector-email' },
  });
  return {
    async request<T>(credentials: Credentials, request: ResendRequest): Promise<HttpResult<T>> {
      const { requiredScopes, ...httpRequest } = request;
      try {
        return await http.request<T>(credentials, httpRequest);
      } catch (error) {
        throw normalizeResendError(error, requiredScopes);
      }
    },
  };
}
