import { describeConnectorConformance } from '@patchbay/testing';
import { createEmail } from './email-connector.js';
import {
  applicationError,
  emailNotFound,
  invalidApiKey,
  rateLimitExceeded,
  restrictedApiKey,
} from './fixtures/email-responses.js';

describeConnectorConformance(createEmail(), {
  credentials: { token: 're_test_0000000000000000' },
  samples: {
    email_send: { from: 'Acme <hello@acme.com>', to: 'ada@example.com', subject: 'Hi', text: 'Hello' },
    email_send_batch: {
      emails: [{ from: 'hello@acme.com', to: ['ada@example.com'], subject: 'Hi', text: 'Hello' }],
    },
    email_get: { id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' },
    email_list_sent: {},
    email_list_domains: {},
  },
  // Resend's own shapes: a bad key is 403 `invalid_api_key`, a sending-only key used for more is 401.
  failures: {
    unauthorized: invalidApiKey,
    forbidden: restrictedApiKey,
    not_found: emailNotFound,
    rate_limited: rateLimitExceeded,
    server_error: applicationError,
  },
});
