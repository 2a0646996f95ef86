import { z } from 'zod';
import { type ErrorType, errorTypeSchema } from './error-types.js';

/** A field the user must supply, with the plain question to ask them. */
export const missingFieldSchema = z.object({
  field: z.string(),
  question: z.string(),
});
/** A field the user must supply, with the plain question to ask them. */
export type MissingField = z.infer<typeof missingFieldSchema>;

/** One argument problem the model can fix itself. */
export const argumentIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
/** One argument problem the model can fix itself. */
export type ArgumentIssue = z.infer<typeof argumentIssueSchema>;

/** Metadata carried beside the payload; never secrets. */
export const envelopeMetaSchema = z
  .object({
    correlation_id: z.string().optional(),
    tool: z.string().optional(),
    duration_ms: z.number().optional(),
    status_code: z.number().int().optional(),
  })
  .passthrough();
/** Metadata carried beside the payload; never secrets. */
export type EnvelopeMeta = z.infer<typeof envelopeMetaSchema>;

/** A successful tool result. */
export const successEnvelopeSchema = z.object({
  ok: z.literal(true),
  data: z.unknown(),
  meta: envelopeMetaSchema.optional(),
});
/** A successful tool result. */
export interface SuccessEnvelope<T = unknown> {
  ok: true;
  data: T;
  meta?: EnvelopeMeta;
}

/** A failed tool result: one shape whatever failed. */
export const errorEnvelopeSchema = z.object({
  ok: z.literal(false),
  error_type: errorTypeSchema,
  user_message: z.string(),
  connector: z.string().optional(),
  setup_url: z.string().optional(),
  retryable: z.boolean(),
  retry_after_s: z.number().nonnegative().optional(),
  missing: z.array(missingFieldSchema).optional(),
  missing_scopes: z.array(z.string()).optional(),
  issues: z.array(argumentIssueSchema).optional(),
  proposal_id: z.string().optional(),
  meta: envelopeMetaSchema.optional(),
});
/** A failed tool result: one shape whatever failed. */
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema> & { error_type: ErrorType };

/** Zod schema of any {@link Envelope}. */
export const envelopeSchema = z.discriminatedUnion('ok', [successEnvelopeSchema, errorEnvelopeSchema]);

/** Every tool result, from a connector, an MCP server or the orchestrator itself. */
export type Envelope<T = unknown> = SuccessEnvelope<T> | ErrorEnvelope;

/** True when `value` is a well-formed envelope. */
export function isEnvelope(value: unknown): value is Envelope {
  // Most values asked about are plain results (a string, an array, an object without `ok`): a
  // failing schema pass builds an error object per call, so those are answered before it.
  if (typeof value !== 'object' || value === null || typeof (value as { ok?: unknown }).ok !== 'boolean') {
    return false;
  }
  return envelopeSchema.safeParse(value).success;
}

/** True for a failed envelope. */
export function isErrorEnvelope(value: Envelope): value is ErrorEnvelope {
  return value.ok === false;
}
