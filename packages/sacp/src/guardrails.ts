import { REDACTED, redactString } from '@patchbay/envelope';
import type { SacpReply, SacpStatus } from './reply.js';

/** Where a reply is when a guardrail looks at it. */
export interface GuardrailContext {
  nodeId: string;
  correlationId: string;
  step: number;
}

/**
 * A check run on every reply before it is passed on. Returns a changed reply to replace it, or
 * undefined to let it through unchanged.
 */
export interface Guardrail {
  name: string;
  apply(reply: SacpReply, context: GuardrailContext): SacpReply | undefined | Promise<SacpReply | undefined>;
}

/** Options of `redactionGuardrail`. */
export interface RedactionGuardrailOptions {
  /** Exact secret values to remove (also found URL-encoded or base64-encoded). */
  secrets?: Iterable<string> | undefined;
  /** Extra patterns to remove, e.g. internal hostnames or account numbers. */
  patterns?: RegExp[] | undefined;
  /** Statuses whose `message` is redacted (default: only `failure`). */
  statuses?: readonly SacpStatus[] | undefined;
  /** Also redact `thought` (default true: it is shown to reviewers and stored in audits). */
  redactThought?: boolean | undefined;
}

/**
 * Redacts secrets (token shapes and given values, via `redactString`) and configured patterns from
 * the user-facing `message` of failure replies. `data` is left intact for the orchestrator.
 */
export function redactionGuardrail(options: RedactionGuardrailOptions = {}): Guardrail {
  const secrets = [...(options.secrets ?? [])];
  const patterns = (options.patterns ?? []).map((pattern) =>
    pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`),
  );
  const statuses = new Set<SacpStatus>(options.statuses ?? ['failure']);
  const redact = (text: string) => {
    let result = redactString(text, secrets);
    for (const pattern of patterns) result = result.replace(pattern, REDACTED);
    return result;
  };
  return {
    name: 'redaction',
    apply(reply) {
      if (!statuses.has(reply.status)) return undefined;
      const message = redact(reply.message);
      const thought = options.redactThought === false ? reply.thought : redact(reply.thought);
      if (message === reply.message && thought === reply.thought) return undefined;
      return { ...reply, message, thought };
    },
  };
}

/** Options of `interventionGuardrail`. */
export interface InterventionGuardrailOptions {
  /** Name shown in traces and audits (default `intervention`). */
  name?: string | undefined;
  /** Returns a reason when the reply must not pass; anything falsy lets it through. */
  check: (
    reply: SacpReply,
    context: GuardrailContext,
  ) => string | undefined | null | false | Promise<string | undefined | null | false>;
}

/**
 * Forces a reply to `failure` when `check` returns a reason: the reason becomes the message and
 * `data.guardrail` records who intervened and the original status, so the next node never
 * receives the blocked payload as a success.
 */
export function interventionGuardrail(options: InterventionGuardrailOptions): Guardrail {
  const name = options.name ?? 'intervention';
  return {
    name,
    async apply(reply, context) {
      const reason = await options.check(reply, context);
      if (!reason) return undefined;
      return {
        ...reply,
        status: 'failure',
        message: reason,
        data: { ...reply.data, guardrail: { name, reason, original_status: reply.status } },
      };
    },
  };
}

/** Runs the guardrails in order, each on the reply the previous one left; names those that changed it. */
export async function applyGuardrails(
  guardrails: readonly Guardrail[],
  reply: SacpReply,
  context: GuardrailContext,
): Promise<{ reply: SacpReply; applied: string[] }> {
  let current = reply;
  const applied: string[] = [];
  for (const guardrail of guardrails) {
    const changed = await guardrail.apply(current, context);
    if (changed) {
      current = changed;
      applied.push(guardrail.name);
    }
  }
  return { reply: current, applied };
}
