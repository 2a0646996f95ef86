import { HttpError } from '@patchbay/envelope';
import type { HttpRequest } from '@patchbay/helpers';

/** The error body __NAME__ sends. TODO(connector author): the shape the service documents. */
interface __Name__ErrorBody {
  error?: string;
  message?: string;
}

/**
 * __NAME__'s error signals beyond the HTTP status, for the shared client's `mapError`: return a
 * rewritten `HttpError` (status, headers and `missingScopes` are what the envelope reads), a
 * `PatchbayError` with an envelope error type, or an envelope; return `error` for the rest.
 * TODO(connector author): map what the service signals in its own way. If the status always says
 * it all, delete this file, its test and the `mapError` line of the client.
 */
export function map__Name__Error(error: HttpError, request: HttpRequest): unknown {
  const body = (typeof error.body === 'object' && error.body !== null ? error.body : {}) as __Name__ErrorBody;
  // The refusal does not say which scope is missing; the call knows what it needs.
  if (error.status === 403 && body.error === 'insufficient_scope' && request.requiredScopes?.length) {
    return new HttpError({
      status: 403,
      headers: error.headers,
      body: error.body,
      message: error.message,
      missingScopes: [...request.requiredScopes],
    });
  }
  return error;
}
