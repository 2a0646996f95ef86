import { z } from 'zod';

/** Every status an SACP reply may carry; the chain routes on it. */
export const sacpStatuses = ['success', 'failure', 'clarification_needed', 'completed'] as const;

/** Zod schema of an SACP status. */
export const sacpStatusSchema = z.enum(sacpStatuses);

/** One of `success`, `failure`, `clarification_needed`, `completed`. */
export type SacpStatus = z.infer<typeof sacpStatusSchema>;

/** Zod schema of the SACP reply wire shape (snake_case, as models and other processes read it). */
export const sacpReplySchema = z.object({
  thought: z.string().describe('Short reasoning behind the reply; kept for audit, not routed on.'),
  status: sacpStatusSchema.describe('Outcome of the step; the workflow routes on it.'),
  data: z.record(z.string(), z.unknown()).describe('Structured results for the next step.'),
  message: z.string().describe('Human-readable summary or question for the user.'),
  next_step_hint: z.string().optional().describe('Optional suggestion of what should happen next.'),
});

/** A structured agent reply: `{thought, status, data, message, next_step_hint?}`. */
export type SacpReply<Data extends Record<string, unknown> = Record<string, unknown>> = Omit<
  z.infer<typeof sacpReplySchema>,
  'data'
> & { data: Data };

/** True when the value is a well-formed SACP reply. */
export function isSacpReply(value: unknown): value is SacpReply {
  return sacpReplySchema.safeParse(value).success;
}

/** True when the string is one of the SACP statuses. */
export function isSacpStatus(value: unknown): value is SacpStatus {
  return typeof value === 'string' && (sacpStatuses as readonly string[]).includes(value);
}

/**
 * The reply as the next node sees it: `thought` emptied (seed 004: visible to people, ignored by the
 * next agent). The key stays, as an empty string, so the value is still a valid reply.
 */
export function replyForNextNode(reply: SacpReply): SacpReply {
  return { ...reply, thought: '' };
}
