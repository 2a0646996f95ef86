import {
  conflict,
  type ErrorEnvelope,
  failure,
  HttpError,
  needsInput,
  permissionDenied,
} from '@patchbay/envelope';

// Twilio's 429 (code 20429) usually names no wait; its guidance is to back off and retry, so the
// envelope suggests the first step of that backoff rather than leaving the wait open.
const defaultRetryAfterS = 1;

/** Twilio's error body: `{ code, message, more_info, status }`. */
export interface TwilioErrorBody {
  code?: number;
  message?: string;
  more_info?: string;
  status?: number;
}

/** The Twilio error code of a failed call (20003, 21211, ...), if the body carries one. */
export function twilioErrorCode(error: unknown): number | undefined {
  if (!HttpError.isHttpError(error)) return undefined;
  const code = (error.body as TwilioErrorBody | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Twilio's own sentence for a failed call, if the body carries one. */
export function twilioErrorMessage(error: unknown): string | undefined {
  if (!HttpError.isHttpError(error)) return undefined;
  const message = (error.body as TwilioErrorBody | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** Adds the backoff wait to a 429 that names none, so the envelope carries `retry_after_s`. */
function withRetryAfter(error: HttpError): HttpError {
  if (error.status !== 429 || error.headers.has('retry-after')) return error;
  const headers = new Headers(error.headers);
  headers.set('retry-after', String(defaultRetryAfterS));
  return new HttpError({ status: 429, headers, body: error.body, message: error.message });
}

/** The question asked when Twilio cannot use the recipient number. */
export const recipientQuestion =
  'Which phone number should I text? Please give it with its country code, e.g. +14155550123.';

// Twilio codes for a recipient number it cannot use: only the user knows the right one.
const badRecipientCodes = new Set([
  21211, // Invalid 'To' phone number
  21614, // 'To' number is not a valid mobile number
]);
// Codes for a sender this account cannot use: the model can look up the account's numbers.
const badSenderCodes = new Set([
  21212, // Invalid 'From' number
  21606, // 'From' is not a valid, SMS-capable number of this account
  21659, // 'From' is not a Twilio phone number or short code
  21660, // Mismatch between 'From' and the account
]);
// Codes the account's settings cause: a person must change them in the Twilio console.
const accountRestrictionCodes = new Set([
  21408, // Permission to send an SMS has not been enabled for the region
  21608, // Trial accounts can only send to verified numbers
]);
const unsubscribedCode = 21610; // The recipient replied STOP to this sender

const said = (error: unknown) => {
  const message = twilioErrorMessage(error);
  return message ? ` Twilio said: ${message}` : '';
};

/**
 * The envelope for a Twilio error code whose meaning is more precise than its HTTP status
 * (mostly 400), or `undefined` to leave the error to the generic HTTP mapping.
 */
export function twilioErrorEnvelope(error: unknown): ErrorEnvelope | undefined {
  const code = twilioErrorCode(error);
  if (code === undefined) return undefined;
  if (badRecipientCodes.has(code)) {
    return needsInput({
      missing: [{ field: 'to', question: recipientQuestion }],
      userMessage: `Twilio cannot send to that number.${said(error)}`,
    });
  }
  if (badSenderCodes.has(code)) {
    return failure('invalid_arguments', {
      issues: [
        {
          path: 'from',
          message: `Not a number this Twilio account can send SMS from; list them with sms_list_phone_numbers.${said(error)}`,
        },
      ],
      userMessage: `The sender number cannot be used with this Twilio account.${said(error)}`,
    });
  }
  if (accountRestrictionCodes.has(code)) {
    return permissionDenied({
      userMessage: `The Twilio account is not allowed to send this message; its settings need changing in the Twilio console.${said(error)}`,
    });
  }
  if (code === unsubscribedCode) {
    return conflict({
      userMessage: `The recipient has opted out of messages from this sender (replied STOP), so Twilio will not deliver to them.${said(error)}`,
    });
  }
  return undefined;
}

/**
 * Twilio's error signals, for the shared client's `mapError`: an error code with a meaning of its
 * own becomes its envelope (the tool call returns it as it is); a 429 without a wait gets one.
 */
export function mapSmsError(error: HttpError): unknown {
  return twilioErrorEnvelope(error) ?? withRetryAfter(error);
}
