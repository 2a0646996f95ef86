/** A Message resource as Twilio returns it (`Messages.json`, `Messages/{Sid}.json`). */
export interface TwilioMessage {
  sid: string;
  account_sid?: string;
  messaging_service_sid?: string | null;
  to: string;
  from: string | null;
  body: string;
  status: string;
  direction?: string;
  num_segments?: string;
  num_media?: string;
  price?: string | null;
  price_unit?: string | null;
  error_code?: number | null;
  error_message?: string | null;
  date_created?: string | null;
  date_sent?: string | null;
  date_updated?: string | null;
  uri?: string;
}

/** The fields of a message a model needs; delivery errors included so a failed send is visible. */
export function summarizeMessage(message: TwilioMessage) {
  return {
    sid: message.sid,
    to: message.to,
    from: message.from,
    body: message.body,
    status: message.status,
    direction: message.direction ?? null,
    num_segments: message.num_segments === undefined ? null : Number(message.num_segments),
    price: message.price ?? null,
    price_unit: message.price_unit ?? null,
    error_code: message.error_code ?? null,
    error_message: message.error_message ?? null,
    date_created: message.date_created ?? null,
    date_sent: message.date_sent ?? null,
  };
}

/** A message SID: `SM` (SMS) or `MM` (MMS) and 32 hex digits. */
export const messageSidPattern = /^(SM|MM)[0-9a-fA-F]{32}$/;
