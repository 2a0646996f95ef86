import { HttpError } from '@patchbay/envelope';
import type { HttpRequest } from '@patchbay/helpers';

/** Notion's documented error body: `{ object: 'error', status, code, message, request_id }`. */
export interface NotionErrorBody {
  object: 'error';
  status: number;
  code: string;
  message: string;
  request_id?: string;
}

/** Narrows a parsed body to Notion's error shape. */
export function isNotionErrorBody(body: unknown): body is NotionErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { object?: unknown }).object === 'error' &&
    typeof (body as { code?: unknown }).code === 'string'
  );
}

/**
 * Notion's error signals beyond the status, for the shared client's `mapError`: its
 * `restricted_resource` refusal does not name the capability the integration lacks, so the
 * call's `requiredScopes` are reported missing.
 */
export function mapNotionError(error: HttpError, request: HttpRequest): HttpError {
  if (!isNotionErrorBody(error.body)) return error;
  if (error.body.code === 'restricted_resource' && request.requiredScopes?.length) {
    return new HttpError({
      status: error.status,
      headers: error.headers,
      body: error.body,
      message: error.message,
      missingScopes: [...request.requiredScopes],
    });
  }
  return error;
}
