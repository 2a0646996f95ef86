import { z } from 'zod';

// Resend takes one address or a list for every recipient field; models pass either.
const addresses = (what: string, max?: number) => {
  const list = z.array(z.string().min(1)).min(1);
  return z.union([z.string().min(1), max === undefined ? list : list.max(max)]).describe(what);
};

/** The fields of one email as `POST /emails` takes them. */
export const emailMessageFields = {
  from: z
    .string()
    .min(1)
    .describe(
      'Sender address on a domain verified in Resend, optionally with a name: "Acme <hello@acme.com>"',
    )
    .meta({ question: 'Which address should the email be sent from?' }),
  to: addresses('Recipient address, or a list of up to 50 addresses', 50).meta({
    question: 'Who should receive the email?',
  }),
  subject: z
    .string()
    .min(1)
    .describe('Subject line of the email')
    .meta({ question: 'What should the subject of the email be?' }),
  text: z
    .string()
    .optional()
    .describe('Plain-text body. Give text, html or both')
    .meta({ question: 'What should the email say?' }),
  html: z.string().optional().describe('HTML body. Give text, html or both'),
  cc: addresses('Cc recipient address or list of addresses').optional(),
  bcc: addresses('Bcc recipient address or list of addresses').optional(),
  reply_to: addresses('Address or addresses that replies should go to').optional(),
};

/** One email as the tools accept it. */
export const emailMessageSchema = z.object(emailMessageFields);
/** One email as the tools accept it. */
export type EmailMessage = z.output<typeof emailMessageSchema>;

const asList = (value: string | string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** The `POST /emails` body of one message (Resend's field names, lists for every recipient field). */
export function resendMessageBody(message: EmailMessage): Record<string, unknown> {
  return {
    from: message.from,
    to: asList(message.to),
    subject: message.subject,
    text: message.text,
    html: message.html,
    cc: asList(message.cc),
    bcc: asList(message.bcc),
    reply_to: asList(message.reply_to),
  };
}

/** True when the message has a body Resend will accept (text or html). */
export function hasBody(message: EmailMessage): boolean {
  return Boolean(message.text?.trim() || message.html?.trim());
}

/** The recipients of a message as a list, for results. */
export function recipientsOf(message: EmailMessage): string[] {
  return asList(message.to) ?? [];
}

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
