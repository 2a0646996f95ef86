import { z } from 'zod';

/**
 * Every `error_type` an envelope can carry, in the order of DESIGN.md (`cancelled` beside `timeout`).
 * The one list: the constructors' defaults, the renderers, the error codes, the system prompt's
 * explanation and the README table are checked against it by tests.
 */
export const errorTypes = [
  'connector_not_configured',
  'invalid_credentials',
  'rate_limited',
  'permission_denied',
  'disabled_by_admin',
  'needs_input',
  'invalid_arguments',
  'not_found',
  'conflict',
  'upstream_error',
  'network_error',
  'timeout',
  'cancelled',
  'tool_unavailable',
  'approval_required',
  'approval_denied',
  'internal_error',
] as const;

/** Zod schema of {@link ErrorType}. */
export const errorTypeSchema = z.enum(errorTypes);

/** The machine-readable kind of a failed tool call. */
export type ErrorType = (typeof errorTypes)[number];

/**
 * Error types whose resolution needs the user: the agent must ask, not retry.
 * Detection is by type, never by matching words in text.
 */
export const userActionErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'connector_not_configured',
  'invalid_credentials',
  'permission_denied',
  'needs_input',
  'approval_required',
]);

/** Error types that the model itself can fix by calling again with other arguments. */
export const interactiveErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'needs_input',
  'invalid_arguments',
]);
