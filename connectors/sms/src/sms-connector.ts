import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  verifyFailure,
} from '@patchbay/connector';
import { HttpError } from '@patchbay/envelope';
import { accountPath, createSmsClient } from './sms-client.js';
import { createSmsTools } from './tools/index.js';

/** Settings of {@link createSms}: `baseUrl` (a regional edge such as `https://api.dublin.ie1.twilio.com`, a proxy), `fetch`, `headers`. */
export type SmsSettings = ConnectorSettings;

/** The Account resource, the fields `verify` reads. Its `auth_token` field is never read. */
interface TwilioAccount {
  sid: string;
  friendly_name?: string;
  status?: 'active' | 'suspended' | 'closed' | string;
  type?: 'Trial' | 'Full' | string;
}

/** Creates the SMS connector, which sends and reads text messages through Twilio. */
export function createSms(settings: SmsSettings = {}): Connector {
  const client = createSmsClient(settings);
  return defineConnector({
    id: 'sms',
    name: 'SMS (Twilio)',
    description:
      'Twilio is a communications API; this connector uses its Programmable Messaging for SMS and MMS.',
    auth: {
      kind: 'basic',
      // Twilio grants an auth token or an API key the whole account: there are no scopes to declare.
      scopes: [],
      fields: [
        {
          name: 'account_sid',
          description: 'Twilio Account SID (AC...), shown on the Twilio console home page',
          secret: false,
          env: 'TWILIO_ACCOUNT_SID',
        },
        {
          name: 'auth_token',
          description: 'Twilio Auth Token of that account (or the secret of an API key given as api_key_sid)',
          secret: true,
          env: 'TWILIO_AUTH_TOKEN',
        },
      ],
    },
    capabilities: [
      'send text messages',
      'check delivery of text messages',
      'list recent text messages',
      'list the account’s phone numbers',
    ],
    wouldEnable: [
      'Send text messages from your Twilio number when you ask',
      'Check whether a text was delivered and read recent texts',
    ],
    setupUrl: 'https://console.twilio.com/',
    docsUrl: 'https://www.twilio.com/docs/messaging/api/message-resource',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: createSmsTools(client),
    async verify(credentials, options) {
      try {
        const { data } = await client.request<TwilioAccount>(credentials, {
          path: accountPath(credentials),
          signal: options?.signal,
        });
        if (data?.status && data.status !== 'active') {
          return {
            valid: false,
            reason: 'invalid_credentials',
            message: `The Twilio account is ${data.status}; it cannot send or read messages.`,
          };
        }
        // Read field by field: the Account resource also returns the auth token itself.
        const name = typeof data?.friendly_name === 'string' ? data.friendly_name : undefined;
        return {
          valid: true,
          scopes: [],
          ...(name ? { identity: data?.type === 'Trial' ? `${name} (trial)` : name } : {}),
        };
      } catch (error) {
        // Twilio answers 404 when the Account SID in the path names no account these credentials reach.
        if (HttpError.isHttpError(error) && error.status === 404) {
          return {
            valid: false,
            reason: 'invalid_credentials',
            message: 'Twilio knows no account with this Account SID for these credentials.',
          };
        }
        return verifyFailure(error);
      }
    },
  });
}

/** The SMS connector with default settings. */
export const sms = createSms();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<SmsSettings> = createSms;
