import { type JsonSchema, questionForField } from '@patchbay/connector';
import { type ArgumentIssue, type Envelope, failure, type MissingField } from '@patchbay/envelope';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Outcome of validating arguments: the value to pass on, or the envelope to answer with. */
export type ValidationResult = { ok: true; value: unknown } | { ok: false; envelope: Envelope };

function pointerToPath(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function propertyAt(schema: JsonSchema, path: string[]): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema;
  for (const segment of path) {
    if (!current) return undefined;
    const properties = current.properties as Record<string, JsonSchema> | undefined;
    current = properties?.[segment] ?? (current.items as JsonSchema | undefined);
  }
  return current;
}

/** Converts ajv errors to the envelope rule shared with zod: fixable issues first, else ask the user. */
function toEnvelope(
  errors: ErrorObject[],
  schema: JsonSchema,
  context: { tool: string; connector?: string | undefined },
): Envelope {
  const missing: MissingField[] = [];
  const issues: ArgumentIssue[] = [];
  for (const error of errors) {
    const base = pointerToPath(error.instancePath);
    if (error.keyword === 'required') {
      const field = String((error.params as { missingProperty: string }).missingProperty);
      const path = [...base, field];
      const parent = propertyAt(schema, base);
      const property = (parent?.properties as Record<string, JsonSchema> | undefined)?.[field];
      const name = path.join('.');
      if (!missing.some((item) => item.field === name))
        missing.push({ field: name, question: questionForField(name, property) });
    } else {
      // Branch errors of anyOf/oneOf repeat the useful ones; keep the summary too, it names the field.
      issues.push({ path: base.join('.') || '(input)', message: error.message ?? `failed ${error.keyword}` });
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

// ajv-formats is CommonJS: depending on the loader its default import is the plugin or its module object.
const formatsPlugin = ((addFormats as unknown as { default?: unknown }).default ?? addFormats) as (
  ajv: Ajv,
) => Ajv;

function withFormats<T extends Ajv | Ajv2020>(ajv: T): T {
  formatsPlugin(ajv as Ajv);
  return ajv;
}

/**
 * Validates arguments against JSON Schemas (draft-07 or 2020-12, chosen by `$schema`; 2020-12 by
 * default as MCP specifies). Each schema is compiled once and cached under the caller's key.
 */
export class JsonSchemaValidator {
  private readonly draft07 = withFormats(new Ajv({ allErrors: true, strict: false }));
  private readonly draft2020 = withFormats(new Ajv2020({ allErrors: true, strict: false }));
  private readonly compiled = new Map<string, ValidateFunction | Error>();

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
        const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
        const ajv = /draft-0[4-7]/.test(dialect) ? this.draft07 : this.draft2020;
        // The schema must not be registered under its $id: two tools may share one.
        const { $id: _id, ...anonymous } = schema;
        validator = ajv.compile(anonymous);
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
    if (validator(value)) return { ok: true, value };
    return { ok: false, envelope: toEnvelope(validator.errors ?? [], schema, context) };
  }

  /** Drops compiled schemas whose key starts with a prefix (a tool whose definition changed). */
  forget(prefix: string): void {
    for (const key of this.compiled.keys()) if (key.startsWith(prefix)) this.compiled.delete(key);
  }
}
