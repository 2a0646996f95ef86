import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  verifyFailure,
} from '@patchbay/connector';
import { createEmailClient } from './email-client.js';
import { isQuotaExceeded, resendErrorName } from './email-errors.js';
import { emailScopeDeclarations, fullAccessScopes, sendingAccessScopes } from './email-scopes.js';
import { createEmailTools } from './tools/index.js';
import type { ResendDomain } from './tools/list-domains.js';

/** Settings of {@link createEmail}: `baseUrl` (a proxy), `fetch`, `headers`. */
export type EmailSettings = ConnectorSettings;

// Enough domain names to recognise the account by; the rest would only lengthen the status block.
const identityDomains = 3;

/** Creates the email connector, which sends and tracks email through Resend. */
export function createEmail(settings: EmailSettings = {}): Connector {
  const client = createEmailClient(settings);
  return defineConnector({
    id: 'email',
    name: 'Email (Resend)',
    description: 'Resend is an email API for sending transactional email from your own verified domains.',
    auth: {
      kind: 'api_key',
      scopes: emailScopeDeclarations,
      fields: [
        {
          name: 'token',
          description: 'Resend API key (re_...); full access, or sending access for sending only',
          secret: true,
          env: 'RESEND_API_KEY',
        },
      ],
    },
    capabilities: [
      'send emails',
      'send batches of emails',
      'check delivery of sent emails',
      'list sending domains',
    ],
    wouldEnable: [
      'Send emails from your own domain when you ask',
      'Check whether an email you sent was delivered, opened or bounced',
    ],
    setupUrl: 'https://resend.com/api-keys',
    docsUrl: 'https://resend.com/docs/api-reference/introduction',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: createEmailTools(client),
    async verify(credentials, options) {
      try {
        // The cheapest call that tells a full-access key from a sending-only one.
        const { data } = await client.request<{ data?: ResendDomain[] }>(credentials, {
          path: '/domains',
          signal: options?.signal,
        });
        const names = (data?.data ?? []).map((domain) => domain.name).filter(Boolean);
        return {
          valid: true,
          scopes: [...fullAccessScopes],
          ...(names.length > 0 ? { identity: names.slice(0, identityDomains).join(', ') } : {}),
        };
      } catch (error) {
        if (resendErrorName(error) === 'restricted_api_key')
          return { valid: true, scopes: [...sendingAccessScopes] };
        // The key answered, the account is out of quota: say so instead of "could not be reached".
        if (isQuotaExceeded(error))
          return { valid: false, reason: 'rate_limited', message: error.user_message };
        return verifyFailure(error);
      }
    },
  });
}

/** The email connector with default settings. */
export const email = createEmail();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<EmailSettings> = createEmail;
