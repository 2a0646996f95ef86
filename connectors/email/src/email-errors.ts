import type { HttpRequest } from '@patchbay/connector';
import { HttpError, PatchbayError } from '@patchbay/envelope';

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
 * Resend's error signals, for the shared client's `mapError`. Its statuses for key problems run
 * against the usual meaning: a wrong or revoked key is
 * 403 `invalid_api_key`, while 401 `restricted_api_key` is a valid sending-only key used for
 * anything else. Re-states both in plain HTTP terms so the envelope mapping (and `verifyFailure`)
 * reads them right, and names a used-up sending quota; every other error passes through unchanged.
 */
export function mapEmailError(error: HttpError, request: HttpRequest): unknown {
  const requiredScopes = request.requiredScopes ?? [];
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
      missingScopes: requiredScopes.length > 0 ? [...requiredScopes] : undefined,
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
