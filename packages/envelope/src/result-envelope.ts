import { failure, success } from './constructors.js';
import { type Envelope, isEnvelope } from './envelope.js';
import { type ErrorType, errorTypeSchema } from './error-types.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A failure a tool returned in the shape seed 000 teaches (`{ ok: false, error_type, user_message,
 * connector?, setup_url? }`), or without its `ok`: a failure, never data. Also what a tool written
 * against an older or looser envelope returns (no `retryable`, an `error_type` outside the taxonomy).
 */
function looksLikeFailure(value: Record<string, unknown>): boolean {
  if (value.ok === false) return true;
  return (
    value.ok === undefined && typeof value.error_type === 'string' && typeof value.user_message === 'string'
  );
}

/**
 * The envelope of what a tool function returned: an envelope as it is; a failure in seed 000's shape
 * (or an envelope missing fields, such as `retryable`) completed into a failure envelope of its type
 * (an `error_type` outside the taxonomy becomes `upstream_error`, keeping the message), with the type's
 * default retryability unless it says otherwise; anything else as the data of a success.
 */
export function resultEnvelope(value: unknown): Envelope {
  if (isEnvelope(value)) return value;
  if (!isRecord(value) || !looksLikeFailure(value)) return success(value);
  const parsedType = errorTypeSchema.safeParse(value.error_type);
  const type: ErrorType = parsedType.success ? parsedType.data : 'upstream_error';
  const text = (field: string) => (typeof value[field] === 'string' ? (value[field] as string) : undefined);
  const userMessage = text('user_message') ?? text('message');
  const connector = text('connector');
  const setupUrl = text('setup_url');
  return failure(type, {
    ...(userMessage !== undefined ? { userMessage } : {}),
    ...(connector !== undefined ? { connector } : {}),
    ...(setupUrl !== undefined ? { setupUrl } : {}),
    ...(typeof value.retryable === 'boolean' ? { retryable: value.retryable } : {}),
    ...(typeof value.retry_after_s === 'number' && value.retry_after_s >= 0
      ? { retryAfterS: value.retry_after_s }
      : {}),
  });
}
