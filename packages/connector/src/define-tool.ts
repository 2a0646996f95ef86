import { PatchbayError } from '@patchbay/envelope';
import { z } from 'zod';
import { questionForField, undescribedFields } from './field-questions.js';
import { type AnyTool, type JsonSchema, type Tool, type ToolDefinition, toolEffects } from './tool.js';
import { formatDefinitionIssues } from './validation.js';

// Duck-typed as well, so a schema from a second copy of zod is still accepted.
const isZodSchema = (value: unknown) =>
  value instanceof z.ZodType ||
  (typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as { safeParseAsync?: unknown }).safeParseAsync === 'function');
const isFunction = (value: unknown) => typeof value === 'function';

/** Zod schema of a {@link ToolDefinition}, checked at definition time. */
export const toolDefinitionSchema = z.object({
  name: z
    .string()
    .regex(
      /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/,
      'must be snake_case and prefixed by the connector id, e.g. github_create_issue',
    )
    .max(64, 'must be at most 64 characters (a limit of several model APIs)'),
  description: z.string().trim().min(10, 'must say what the tool does in a sentence'),
  input: z.custom<z.ZodType>(isZodSchema, 'must be a zod schema'),
  output: z.custom<z.ZodType>(isZodSchema, 'must be a zod schema').optional(),
  effect: z.enum(toolEffects),
  requiredScopes: z.array(z.string().min(1)).default([]),
  requires: z.array(z.string().regex(/^[a-z][a-z0-9]*$/, 'must be a connector id')).default([]),
  timeoutMs: z.number().int().positive().optional(),
  examples: z.array(z.string().trim().min(1, 'must not be empty')).max(10, 'at most 10 examples').optional(),
  category: z.string().trim().min(1).max(40).optional(),
  execute: z.custom<ToolDefinition['execute']>(isFunction, 'must be a function'),
});

/**
 * Validates a tool definition and derives its JSON Schema. Throws a `PatchbayError` with code
 * `invalid_definition` naming the bad field, e.g. `tool "x_y": effect: Invalid option ...`.
 */
export function defineTool<Input extends z.ZodType, Output = unknown>(
  definition: ToolDefinition<Input, Output>,
): Tool<Input, Output> {
  const label = `tool "${typeof definition?.name === 'string' ? definition.name : '?'}"`;
  const parsed = toolDefinitionSchema.safeParse(definition);
  if (!parsed.success) {
    throw new PatchbayError('invalid_definition', `${label}: ${formatDefinitionIssues(parsed.error)}`);
  }
  let inputJsonSchema: JsonSchema;
  try {
    inputJsonSchema = z.toJSONSchema(definition.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch (error) {
    throw new PatchbayError('invalid_definition', `${label}: input: cannot be expressed as JSON Schema`, {
      cause: error,
    });
  }
  if (inputJsonSchema.type !== 'object') {
    throw new PatchbayError('invalid_definition', `${label}: input: must be a z.object(...) schema`);
  }
  const undescribed = undescribedFields(inputJsonSchema);
  if (undescribed.length > 0) {
    throw new PatchbayError(
      'invalid_definition',
      `${label}: input.${undescribed[0]}: every input field needs .describe(); missing on ${undescribed.join(', ')}`,
    );
  }
  const questions: Record<string, string> = {};
  for (const [field, property] of Object.entries(
    (inputJsonSchema.properties ?? {}) as Record<string, JsonSchema>,
  )) {
    questions[field] = questionForField(field, property);
  }
  const { $schema: _ignored, ...schemaWithoutDialect } = inputJsonSchema;
  return Object.freeze({
    ...definition,
    requiredScopes: parsed.data.requiredScopes,
    requires: parsed.data.requires,
    output: definition.output,
    inputJsonSchema: schemaWithoutDialect,
    questions: Object.freeze(questions),
  }) as Tool<Input, Output>;
}

/** Narrows any value to a tool produced by {@link defineTool}. */
export function isTool(value: unknown): value is AnyTool {
  return typeof value === 'object' && value !== null && 'inputJsonSchema' in value && 'execute' in value;
}
