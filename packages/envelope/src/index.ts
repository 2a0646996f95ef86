export {
  approvalDenied,
  approvalRequired,
  cancelled,
  conflict,
  disabledByAdmin,
  type ErrorOptions,
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
  argumentIssueSchema,
  type Envelope,
  type EnvelopeMeta,
  type ErrorEnvelope,
  envelopeMetaSchema,
  envelopeSchema,
  errorEnvelopeSchema,
  isEnvelope,
  isErrorEnvelope,
  type MissingField,
  missingFieldSchema,
  type SuccessEnvelope,
  successEnvelopeSchema,
} from './envelope.js';
export {
  errorTypeOfCode,
  isPatchbayErrorCode,
  type PatchbayErrorCode,
  patchbayErrorCodes,
} from './error-codes.js';
export {
  type ErrorType,
  errorTypeSchema,
  errorTypes,
  interactiveErrorTypes,
  userActionErrorTypes,
} from './error-types.js';
export { isRateLimitedResponse } from './from-http.js';
export { HttpError, type HttpResponseLike } from './http-error.js';
export { type BrandedErrorClass, PatchbayError } from './patchbay-error.js';
export { createRedactor, REDACTED, type Redactor, redactString, redactValue } from './redact.js';
export {
  formatWait,
  type ModelRenderOptions,
  renderEnvelopeForModel,
  renderEnvelopeForUser,
  truncateForModel,
  type UserRenderOptions,
} from './render.js';
export { resultEnvelope } from './result-envelope.js';
export {
  type EnvelopeContext,
  mayHaveTakenEffect,
  redactWith,
  retryAfterSeconds,
  toEnvelope,
} from './to-envelope.js';
