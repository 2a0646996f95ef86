export {
  type ErrorOptions,
  approvalDenied,
  approvalRequired,
  conflict,
  disabledByAdmin,
  errorDefaults,
  failure,
  internalError,
  invalidArguments,
  invalidCredentials,
  needsInput,
  networkError,
  notConfigured,
  notFound,
  permissionDenied,
  rateLimited,
  success,
  timeout,
  toolUnavailable,
  upstreamError,
} from './constructors.js';
export {
  type ArgumentIssue,
  type Envelope,
  type EnvelopeMeta,
  type ErrorEnvelope,
  type MissingField,
  type SuccessEnvelope,
  argumentIssueSchema,
  envelopeMetaSchema,
  envelopeSchema,
  errorEnvelopeSchema,
  isEnvelope,
  isErrorEnvelope,
  missingFieldSchema,
  successEnvelopeSchema,
} from './envelope.js';
export {
  type ErrorType,
  errorTypeSchema,
  errorTypes,
  interactiveErrorTypes,
  userActionErrorTypes,
} from './error-types.js';
export { PatchbayError } from './patchbay-error.js';
export { HttpError, type HttpResponseLike } from './http-error.js';
export { REDACTED, redactString, redactValue } from './redact.js';
export { type EnvelopeContext, redactWith, retryAfterSeconds, toEnvelope } from './to-envelope.js';
