export { accountPath, createTwilioClient, defaultTwilioBaseUrl, type TwilioClient } from './sms-client.js';
export { createSms, type SmsSettings, sms } from './sms-connector.js';
