import type { ConnectorSettings } from '@patchbay/connector';
import { createHttpClient, type HttpClient } from '@patchbay/helpers';
import { mapEmailError } from './email-errors.js';

/** Where the Resend API lives unless `baseUrl` says otherwise. */
export const defaultResendBaseUrl = 'https://api.resend.com';

/**
 * The HTTP client the email tools share; it speaks Resend's error names. A request names the
 * scopes it needs in `requiredScopes`, reported missing when Resend says the key is sending-only.
 */
export type EmailClient = HttpClient;

/** Creates the Resend client: bearer API key per request, `HttpError`s in plain HTTP terms. */
export function createEmailClient(settings: ConnectorSettings): EmailClient {
  return createHttpClient({
    settings,
    defaultBaseUrl: defaultResendBaseUrl,
    authorize: (credentials) => ({ authorization: `Bearer ${credentials.token ?? ''}` }),
    headers: { 'user-agent': 'patchbay-connector-email' },
    mapError: mapEmailError,
  });
}
