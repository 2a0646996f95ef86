import { type JsonSchema, questionForField } from '@patchbay/connector';
import { type ArgumentIssue, type Envelope, failure, type MissingField } from '@patchbay/envelope';
import {
  createJsonSchemaCompiler,
  type JsonSchemaCheck,
  type JsonSchemaCompiler,
  type JsonSchemaIssue,
} from '@patchbay/json-schema';

/** Outcome of validating arguments: the value to pass on, or the envelope to answer with. */
export type ValidationResult = { ok: true; value: unknown } | { ok: false; envelope: Envelope };

function propertyAt(schema: JsonSchema, path: string[]): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema;
  for (const segment of path) {
    if (!current) return undefined;
    const properties = current.properties as Record<string, JsonSchema> | undefined;
    current = properties?.[segment] ?? (current.items as JsonSchema | undefined);
  }
  return current;
}

/** Converts schema issues to the envelope rule shared with zod: fixable issues first, else ask the user. */
function toEnvelope(
  schemaIssues: JsonSchemaIssue[],
  schema: JsonSchema,
  context: { tool: string; connector?: string | undefined },
): Envelope {
  const missing: MissingField[] = [];
  const issues: ArgumentIssue[] = [];
  for (const issue of schemaIssues) {
    const base = issue.path;
    if (issue.missingProperty !== undefined) {
      const field = issue.missingProperty;
      const path = [...base, field];
      const parent = propertyAt(schema, base);
      const property = (parent?.properties as Record<string, JsonSchema> | undefined)?.[field];
      const name = path.join('.');
      if (!missing.some((item) => item.field === name))
        missing.push({ field: name, question: questionForField(name, property) });
    } else {
      // Branch errors of anyOf/oneOf repeat the useful ones; keep the summary too, it names the field.
      issues.push({ path: base.join('.') || '(input)', message: issue.message });
    }
  }
  const common = context.connector !== undefined ? { connector: context.connector } : {};
  if (issues.length > 0) {
    return failure('invalid_arguments', {
      ...common,
      issues,
      userMessage: `Invalid arguments: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      ...(missing.length ? { missing } : {}),
    });
  }
  return failure('needs_input', {
    ...common,
    missing,
    userMessage: missing.map((field) => field.question).join(' '),
  });
}

/**
 * Validates arguments against JSON Schemas with the set-up of `@patchbay/json-schema` (draft-07 or
 * 2020-12, chosen by `$schema`; 2020-12 by default as MCP specifies; formats checked), the same one
 * SACP checks reply data with. Each schema is compiled once and cached under the caller's key.
 */
export class JsonSchemaValidator {
  // Made at the first validation, not with the orchestrator: two Ajv instances with their formats
  // cost ~8 ms, paid by every start-up (`patchbay mcp` before its first answer) otherwise.
  private compiler: JsonSchemaCompiler | undefined;
  private readonly compiled = new Map<string, JsonSchemaCheck | Error>();

  /** Validates `args`; `cacheKey` must change whenever the schema does (tool name + definition hash). */
  validate(
    cacheKey: string,
    schema: JsonSchema,
    args: unknown,
    context: { tool: string; connector?: string | undefined },
  ): ValidationResult {
    let validator = this.compiled.get(cacheKey);
    if (!validator) {
      try {
        this.compiler ??= createJsonSchemaCompiler();
        validator = this.compiler.compile(schema);
      } catch (error) {
        validator = error instanceof Error ? error : new Error(String(error));
      }
      this.compiled.set(cacheKey, validator);
    }
    if (validator instanceof Error) {
      return {
        ok: false,
        envelope: failure('internal_error', {
          userMessage: `The tool ${context.tool} has an input schema that cannot be checked.`,
        }),
      };
    }
    const value = args ?? {};
    const schemaIssues = validator(value);
    if (schemaIssues.length === 0) return { ok: true, value };
    return { ok: false, envelope: toEnvelope(schemaIssues, schema, context) };
  }

  /** Drops compiled schemas whose key starts with a prefix (a tool whose definition changed). */
  forget(prefix: string): void {
    for (const key of this.compiled.keys()) if (key.startsWith(prefix)) this.compiled.delete(key);
  }
}
