import { type ErrorEnvelope, failure, HttpError } from '@patchbay/envelope';
import type { HttpRequest } from '@patchbay/helpers';

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
 * A used-up sending quota. Resend answers it with 429 like its per-second limit, but waiting
 * seconds does not help: no email goes out until the quota resets (the next day, or the next
 * billing month) or the plan is upgraded. So it is `rate_limited` yet not retryable, with no
 * `retry_after_s` — Resend does not say when the quota resets — and a sentence that says which.
 */
export function quotaExceeded(period: 'daily' | 'monthly'): ErrorEnvelope {
  return failure('rate_limited', {
    connector: 'email',
    retryable: false,
    userMessage: `The Resend account has used up its ${period} sending quota, so no email can be sent until it resets ${period === 'daily' ? 'tomorrow' : 'next month'} or the Resend plan is upgraded; do not retry now.`,
  });
}

/** Whether a thrown value is the envelope {@link quotaExceeded} built. */
export function isQuotaExceeded(error: unknown): error is ErrorEnvelope {
  const envelope = error as Partial<ErrorEnvelope> | null;
  return (
    typeof envelope === 'object' &&
    envelope !== null &&
    envelope.ok === false &&
    envelope.error_type === 'rate_limited' &&
    envelope.retryable === false &&
    envelope.connector === 'email'
  );
}

/**
 * Resend's error signals, for the shared client's `mapError`. Its statuses for key problems run
 * against the usual meaning: a wrong or revoked key is
 * 403 `invalid_api_key`, while 401 `restricted_api_key` is a valid sending-only key used for
 * anything else. Re-states both in plain HTTP terms so the envelope mapping (and `verifyFailure`)
 * reads them right, and turns a used-up sending quota into a non-retryable envelope; every other error passes through unchanged.
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
    return quotaExceeded(name === 'daily_quota_exceeded' ? 'daily' : 'monthly');
  }
  return error;
}
