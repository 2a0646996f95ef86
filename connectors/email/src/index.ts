export { connectorFactory, createEmail, type EmailSettings, email } from './email-connector.js';
