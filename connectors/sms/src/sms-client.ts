import type { ConnectorSettings, Credentials } from '@patchbay/connector';
import { createHttpClient, type HttpClient } from '@patchbay/helpers';
import { mapSmsError } from './sms-errors.js';

/** Where the Twilio REST API lives unless `baseUrl` says otherwise (a regional edge, a proxy). */
export const defaultTwilioBaseUrl = 'https://api.twilio.com';

/** The Twilio REST API version the messaging resources live under. */
export const twilioApiVersion = '2010-04-01';

/**
 * The user name of Twilio's HTTP Basic auth: an API key SID (`SK...`) when the credentials carry
 * one, else the Account SID. The password is the matching secret (`auth_token`).
 */
export function twilioUsername(credentials: Credentials): string {
  return credentials.api_key_sid || credentials.account_sid || '';
}

/** The path of an account's resource: `/2010-04-01/Accounts/{AccountSid}/{resource}.json`. */
export function accountPath(credentials: Credentials, resource = ''): string {
  const account = encodeURIComponent(credentials.account_sid ?? '');
  return `/${twilioApiVersion}/Accounts/${account}${resource ? `/${resource}` : ''}.json`;
}

// UTF-8 then base64 without Buffer, so the connector also runs on edge runtimes.
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The HTTP client the SMS tools share. */
export type SmsClient = HttpClient;

/** Creates the Twilio client: HTTP Basic auth per request, form bodies, `HttpError` on failure. */
export function createSmsClient(settings: ConnectorSettings): SmsClient {
  return createHttpClient({
    settings,
    defaultBaseUrl: defaultTwilioBaseUrl,
    authorize: (credentials) => ({
      authorization: `Basic ${base64(`${twilioUsername(credentials)}:${credentials.auth_token ?? ''}`)}`,
    }),
    headers: { 'user-agent': 'patchbay-connector-sms' },
    mapError: mapSmsError,
  });
}
