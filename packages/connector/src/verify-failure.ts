import { HttpError, isRateLimitedResponse, retryAfterSeconds } from '@patchbay/envelope';
import type { VerifyResult } from './credentials.js';

/**
 * Maps an error thrown while verifying credentials to a `VerifyResult`; never throws, never leaks
 * (the error's text is never repeated: it may carry a token). `defineConnector` applies it to a
 * `verify` that throws; call it yourself in a `catch` to answer in the same words.
 * - 401, or a 403 that is not a rate limit: `invalid_credentials`;
 * - a rate limit, read by the envelope's one rule (`isRateLimitedResponse`): `rate_limited` with
 *   the service's wait;
 * - anything else: `unreachable`.
 */
export function verifyFailure(error: unknown): VerifyResult {
  // `isHttpError`, not `instanceof`: a connector built against another copy of the envelope package
  // throws HttpErrors this copy's class does not recognise.
  if (!HttpError.isHttpError(error)) {
    return { valid: false, reason: 'unreachable', message: 'The service could not be reached.' };
  }
  if (isRateLimitedResponse(error)) {
    return {
      valid: false,
      reason: 'rate_limited',
      message: 'The service is rate limiting requests.',
      retryAfterS: retryAfterSeconds(error.headers),
    };
  }
  if (error.status === 401 || error.status === 403) {
    return {
      valid: false,
      reason: 'invalid_credentials',
      message: 'The service rejected these credentials.',
    };
  }
  return {
    valid: false,
    reason: 'unreachable',
    message: 'The service could not check the credentials right now; try again in a moment.',
  };
}
