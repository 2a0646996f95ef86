export {
  createResendClient,
  defaultResendBaseUrl,
  type ResendClient,
  type ResendRequest,
} from './email-client.js';
export { createEmail, type EmailSettings, email } from './email-connector.js';
export { emailScopes } from './email-scopes.js';
