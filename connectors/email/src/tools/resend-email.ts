/** A sent email as Resend returns it (`GET /emails/{id}`, items of `GET /emails`). */
export interface ResendEmail {
  object?: 'email';
  id: string;
  from: string;
  to: string[];
  subject: string;
  created_at: string;
  html?: string | null;
  text?: string | null;
  cc?: string[] | null;
  bcc?: string[] | null;
  reply_to?: string[] | null;
  last_event?: string | null;
  scheduled_at?: string | null;
}

/** The fields of a sent email a model needs, without its body. */
export function summarizeEmail(email: ResendEmail) {
  return {
    id: email.id,
    from: email.from,
    to: email.to,
    cc: email.cc ?? [],
    bcc: email.bcc ?? [],
    subject: email.subject,
    created_at: email.created_at,
    last_event: email.last_event ?? null,
    scheduled_at: email.scheduled_at ?? null,
  };
}
