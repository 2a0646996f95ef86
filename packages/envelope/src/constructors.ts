import type {
  ArgumentIssue,
  EnvelopeMeta,
  ErrorEnvelope,
  MissingField,
  SuccessEnvelope,
} from './envelope.js';
import type { ErrorType } from './error-types.js';

/** Fields any error constructor accepts. */
export interface ErrorOptions {
  /** Overrides the default sentence for the user. */
  userMessage?: string;
  /** Connector id the failure belongs to. */
  connector?: string;
  /** Where the user can set up or repair the connector. */
  setupUrl?: string;
  /** Overrides the type's default retryability. */
  retryable?: boolean;
  /** Seconds to wait before retrying. */
  retryAfterS?: number;
  /** Metadata for logs and tracing; never secrets. */
  meta?: EnvelopeMeta;
}

const defaults: Record<ErrorType, { message: string; retryable: boolean }> = {
  connector_not_configured: { message: 'This connector is not set up yet.', retryable: false },
  invalid_credentials: {
    message: 'The saved credentials for this connector are no longer valid; it needs to be reconnected.',
    retryable: false,
  },
  rate_limited: { message: 'The service is rate limiting requests right now.', retryable: true },
  permission_denied: {
    message: 'The connection does not have the permission this action needs.',
    retryable: false,
  },
  disabled_by_admin: { message: 'This action is not available.', retryable: false },
  needs_input: { message: 'Some information is needed before this can run.', retryable: false },
  invalid_arguments: { message: 'The request had invalid arguments.', retryable: false },
  not_found: { message: 'The requested item was not found.', retryable: false },
  conflict: { message: 'The request conflicts with the current state of the item.', retryable: false },
  upstream_error: { message: 'The service had an internal problem.', retryable: true },
  network_error: { message: 'The service could not be reached.', retryable: true },
  timeout: { message: 'The request took too long and was stopped.', retryable: true },
  // The person (or the app acting for them) stopped the call: running it again would undo their choice.
  cancelled: { message: 'The request was cancelled, so it was stopped.', retryable: false },
  tool_unavailable: { message: 'This tool is not available right now.', retryable: false },
  approval_required: {
    message: 'This action needs approval from a person before it runs.',
    retryable: false,
  },
  approval_denied: { message: 'This action was not approved.', retryable: false },
  internal_error: {
    message:
      'This action failed because of an unexpected error, so it may not have been completed; try again, and report the problem if it keeps happening.',
    retryable: false,
  },
};

/** The default user sentence and retryability of an error type. */
export function errorDefaults(type: ErrorType): { message: string; retryable: boolean } {
  return defaults[type];
}

/** A successful envelope. */
export function success<T>(data: T, meta?: EnvelopeMeta): SuccessEnvelope<T> {
  return meta ? { ok: true, data, meta } : { ok: true, data };
}

/** Builds an error envelope of any type; the named constructors below are shorthands. */
export function failure(
  type: ErrorType,
  options: ErrorOptions & {
    missing?: MissingField[];
    missingScopes?: string[];
    issues?: ArgumentIssue[];
    proposalId?: string;
  } = {},
): ErrorEnvelope {
  const base = defaults[type];
  const envelope: ErrorEnvelope = {
    ok: false,
    error_type: type,
    user_message: options.userMessage ?? base.message,
    retryable: options.retryable ?? base.retryable,
  };
  if (options.connector !== undefined) envelope.connector = options.connector;
  if (options.setupUrl !== undefined) envelope.setup_url = options.setupUrl;
  if (typeof options.retryAfterS === 'number' && Number.isFinite(options.retryAfterS)) {
    envelope.retry_after_s = Math.max(0, Math.ceil(options.retryAfterS));
  }
  if (options.missing?.length) envelope.missing = options.missing;
  if (options.missingScopes?.length) envelope.missing_scopes = options.missingScopes;
  if (options.issues?.length) envelope.issues = options.issues;
  if (options.proposalId !== undefined) envelope.proposal_id = options.proposalId;
  if (options.meta !== undefined) envelope.meta = options.meta;
  return envelope;
}

/** The connector has no stored connection for this user. */
export const notConfigured = (options: ErrorOptions & { connector: string }) =>
  failure('connector_not_configured', options);
/** Stored credentials were rejected (401, revoked token). */
export const invalidCredentials = (options: ErrorOptions = {}) => failure('invalid_credentials', options);
/** The service asked us to slow down. */
export const rateLimited = (options: ErrorOptions = {}) => failure('rate_limited', options);
/** The connection lacks a scope; list the missing scopes. */
export const permissionDenied = (options: ErrorOptions & { missingScopes?: string[] } = {}) =>
  failure('permission_denied', options);
/** An administrator turned the connector off. */
export const disabledByAdmin = (options: ErrorOptions = {}) => failure('disabled_by_admin', options);
/** The user must supply information; each field carries a question. */
export const needsInput = (options: ErrorOptions & { missing: MissingField[] }) =>
  failure('needs_input', {
    ...options,
    userMessage:
      options.userMessage ?? (options.missing.map((field) => field.question).join(' ') || undefined),
  });
/** Arguments the model can correct itself. */
export const invalidArguments = (options: ErrorOptions & { issues: ArgumentIssue[] }) =>
  failure('invalid_arguments', options);
/** The target does not exist (or is not visible to this connection). */
export const notFound = (options: ErrorOptions = {}) => failure('not_found', options);
/** The change conflicts with the current state. */
export const conflict = (options: ErrorOptions = {}) => failure('conflict', options);
/** The service failed on its side (5xx, unexpected body). */
export const upstreamError = (options: ErrorOptions = {}) => failure('upstream_error', options);
/** The service could not be reached. */
export const networkError = (options: ErrorOptions = {}) => failure('network_error', options);
/** The call ran past its time limit and was abandoned. */
export const timeout = (options: ErrorOptions = {}) => failure('timeout', options);
/** The caller's signal fired (the person cancelled); not retried by the model. */
export const cancelled = (options: ErrorOptions = {}) => failure('cancelled', options);
/** Unknown tool or its server is down. */
export const toolUnavailable = (options: ErrorOptions = {}) => failure('tool_unavailable', options);
/** A person must approve this call; carries the proposal id. */
export const approvalRequired = (options: ErrorOptions & { proposalId: string }) =>
  failure('approval_required', options);
/** A person rejected this call. */
export const approvalDenied = (options: ErrorOptions = {}) => failure('approval_denied', options);
/** A failure of our own; never carries internals. */
export const internalError = (options: ErrorOptions = {}) => failure('internal_error', options);
