export { connectorFactory, createSms, type SmsSettings, sms } from './sms-connector.js';
