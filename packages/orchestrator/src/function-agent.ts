import { type JsonSchema, questionForField, type ToolEffect } from '@patchbay/connector';
import { type Envelope, PatchbayError, resultEnvelope, toEnvelope } from '@patchbay/envelope';
import { z } from 'zod';
import type { Agent, AgentTool } from './agent.js';
import { annotationsForEffect } from './connector-agent.js';

/** What a wrapped function receives beside its validated input. */
export interface FunctionCallContext {
  subject: string;
  /** Aborted on timeout or caller cancel. */
  signal: AbortSignal;
  correlationId: string;
}

/** A plain async function described as a tool. */
export interface FunctionToolDefinition<Input extends z.ZodType = z.ZodType, Output = unknown> {
  /** Globally unique tool name. */
  name: string;
  /** What the tool does; the model reads it. */
  description: string;
  input: Input;
  effect: ToolEffect;
  /** Returns the data of a successful envelope, or an envelope itself; a throw is mapped with `toEnvelope`. */
  execute: (
    input: z.output<Input>,
    context: FunctionCallContext,
  ) => Promise<Output | Envelope<Output>> | Output;
  /** Agent id; defaults to `function:<name>`. */
  id?: string;
  timeoutMs?: number;
  /** Defaults to true: in-process code written by the application. */
  trusted?: boolean;
  /** Other connector ids that must be connected for the tool to run. */
  requires?: string[];
  /** Requests a user might make that this tool answers; shown to the model with the description. */
  examples?: string[];
  /** A short group name ("memory", "files"), shown to the model with the description. */
  category?: string;
  /** A name for people; defaults to the tool name. */
  displayName?: string;
  /** What the function can do, in short phrases (the manifest's `capabilities`). */
  capabilities?: string[];
  /** Every call waits for a person's approval, reads included (the manifest's `requiresApproval`). */
  requiresApproval?: boolean;
}

/**
 * Wraps any async function as a one-tool agent (the legacy tool adapter): zod validation with
 * `needs_input` questions, results wrapped as envelopes, throws mapped by `toEnvelope`.
 */
export function fromFunction<Input extends z.ZodType, Output>(
  definition: FunctionToolDefinition<Input, Output>,
): Agent {
  let inputJsonSchema: JsonSchema;
  try {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(definition.input, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonSchema;
    inputJsonSchema = schema;
  } catch (error) {
    throw new PatchbayError(
      'invalid_definition',
      `function tool "${definition.name}": input cannot be expressed as JSON Schema`,
      {
        cause: error,
      },
    );
  }
  const questions: Record<string, string> = {};
  for (const [field, property] of Object.entries(
    (inputJsonSchema.properties ?? {}) as Record<string, JsonSchema>,
  )) {
    questions[field] = questionForField(field, property);
  }
  const id = definition.id ?? `function:${definition.name}`;
  const tool: AgentTool = {
    name: definition.name,
    description: definition.description,
    inputJsonSchema,
    effect: definition.effect,
    requiredScopes: [],
    requires: [...(definition.requires ?? [])],
    timeoutMs: definition.timeoutMs,
    ...(definition.examples ? { examples: [...definition.examples] } : {}),
    ...(definition.category ? { category: definition.category } : {}),
    annotations: annotationsForEffect(definition.effect),
  };
  // A write whose connection dropped mid-request may have happened: not answered as retryable.
  const envelopeContext = {
    tool: definition.name,
    questions,
    harmlessToRepeat: definition.effect === 'read',
  };
  return {
    id,
    trusted: definition.trusted ?? true,
    async initialize() {},
    async shutdown() {},
    async health() {
      return { status: 'up' };
    },
    manifest() {
      return {
        id,
        kind: 'function',
        name: definition.displayName ?? definition.name,
        ...(definition.capabilities ? { capabilities: [...definition.capabilities] } : {}),
        ...(definition.requiresApproval ? { requiresApproval: true } : {}),
        tools: [tool],
      };
    },
    validate(_toolName, args) {
      try {
        const parsed = definition.input.safeParse(args ?? {}, { reportInput: true });
        return parsed.success
          ? { ok: true, value: parsed.data }
          : { ok: false, envelope: toEnvelope(parsed.error, envelopeContext) };
      } catch {
        return { ok: true, value: args };
      }
    },
    async execute(_toolName, args, context) {
      try {
        const result = await definition.execute(args as z.output<Input>, {
          subject: context.subject,
          signal: context.signal,
          correlationId: context.correlationId,
        });
        // A failure returned in seed 000's shape (no `retryable`) is a failure, not data.
        return resultEnvelope(result);
      } catch (error) {
        return toEnvelope(error, envelopeContext);
      }
    },
  };
}
