import { PatchbayError } from '@patchbay/envelope';
import { createJsonSchemaCompiler, type JsonSchemaCheck, type JsonSchemaObject } from '@patchbay/json-schema';
import { z } from 'zod';
import type { SacpIssue } from './issues.js';

export type { JsonSchemaObject };

/** Per-agent schema of the reply's `data`: a zod schema or a JSON Schema object. */
export type DataSchema = z.ZodType | JsonSchemaObject;

/** One documented key of `data`, as the protocol prompt lists it. */
export interface DataKeyDescription {
  key: string;
  type: string;
  required: boolean;
  description?: string | undefined;
}

/** A data schema compiled once: validates `data` and describes its keys. */
export interface DataValidator {
  validate(data: unknown): SacpIssue[];
  keys: DataKeyDescription[];
}

// The set-up the orchestrator's gate checks tool arguments with: formats, dialect by `$schema`.
const jsonSchemas = createJsonSchemaCompiler();
const compiled = new WeakMap<object, DataValidator>();

/** True when the schema is a zod schema rather than a JSON Schema object. */
export function isZodSchema(schema: unknown): schema is z.ZodType {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    '_zod' in schema &&
    typeof (schema as { safeParse?: unknown }).safeParse === 'function'
  );
}

/** Compiles a data schema (cached per schema object). Throws `sacp_invalid_data_schema` when it cannot be compiled. */
export function compileDataSchema(schema: DataSchema): DataValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const validator = isZodSchema(schema) ? fromZod(schema) : fromJsonSchema(schema);
  compiled.set(schema, validator);
  return validator;
}

function fromZod(schema: z.ZodType): DataValidator {
  let jsonSchema: JsonSchemaObject = {};
  try {
    jsonSchema = z.toJSONSchema(schema, { unrepresentable: 'any' }) as JsonSchemaObject;
  } catch {
    // A schema zod cannot express as JSON Schema still validates; the prompt just lists no keys.
  }
  return {
    keys: describeKeys(jsonSchema),
    validate(data) {
      const result = schema.safeParse(data);
      if (result.success) return [];
      return result.error.issues.map((issue) => ({
        path: ['data', ...issue.path.map(String)].join('.'),
        message: issue.message,
      }));
    },
  };
}

function fromJsonSchema(schema: JsonSchemaObject): DataValidator {
  let check: JsonSchemaCheck;
  try {
    check = jsonSchemas.compile(schema);
  } catch (error) {
    // The compiler's error wraps ajv's; its reason reads best after our own sentence.
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    throw new PatchbayError(
      'sacp_invalid_data_schema',
      `The data schema is not a valid JSON Schema: ${reason instanceof Error ? reason.message : String(reason)}`,
      { cause: error },
    );
  }
  return {
    keys: describeKeys(schema),
    validate(data) {
      return check(data).map((issue) => ({
        path: ['data', ...issue.path, ...(issue.missingProperty ? [issue.missingProperty] : [])].join('.'),
        message: issue.message,
      }));
    },
  };
}

function describeKeys(schema: JsonSchemaObject): DataKeyDescription[] {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties as Record<string, unknown>).map(([key, property]) => {
    const node = (typeof property === 'object' && property !== null ? property : {}) as JsonSchemaObject;
    return {
      key,
      type: describeType(node),
      required: required.has(key),
      description: typeof node.description === 'string' ? node.description : undefined,
    };
  });
}

function describeType(node: JsonSchemaObject): string {
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in node) return JSON.stringify(node.const);
  if (Array.isArray(node.type)) return node.type.join(' | ');
  if (node.type === 'array' && typeof node.items === 'object' && node.items !== null) {
    return `array of ${describeType(node.items as JsonSchemaObject)}`;
  }
  if (typeof node.type === 'string') return node.type;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = node[keyword];
    if (Array.isArray(options))
      return options.map((option) => describeType(option as JsonSchemaObject)).join(' | ');
  }
  return 'any';
}
