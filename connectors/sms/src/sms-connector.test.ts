import { describeConnectorConformance } from '@patchbay/testing';
import {
  accountSid,
  authenticationError,
  forbiddenError,
  internalError,
  messageSid,
  notFoundError,
  tooManyRequests,
} from './fixtures/sms-responses.js';
import { createSms } from './sms-connector.js';

describeConnectorConformance(createSms(), {
  credentials: { account_sid: accountSid, auth_token: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
  samples: {
    sms_send: { to: '+14155550123', from: '+14155552345', body: 'Your table is ready' },
    sms_get_message: { sid: messageSid },
    sms_list_messages: {},
    sms_list_phone_numbers: {},
  },
  // Twilio's own bodies; its 429 carries no Retry-After, so the connector must supply the wait.
  failures: {
    unauthorized: authenticationError,
    forbidden: forbiddenError,
    not_found: notFoundError,
    rate_limited: tooManyRequests,
    server_error: internalError,
  },
});
