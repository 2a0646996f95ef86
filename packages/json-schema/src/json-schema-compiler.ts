import { PatchbayError } from '@patchbay/envelope';
import { Ajv, type ErrorObject, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A JSON Schema object as Patchbay receives it (tool input schemas, SACP data schemas). */
export type JsonSchemaObject = { [key: string]: unknown };

/** The JSON Schema dialects Patchbay checks: draft-07 (and older drafts) or 2020-12. */
export type JsonSchemaDialect = 'draft-07' | '2020-12';

/** One way a value broke a schema. */
export interface JsonSchemaIssue {
  /** Path of the offending value as property names and array indexes; `[]` for the value itself. */
  path: string[];
  /** The keyword that failed, e.g. `required`, `format`, `type`. */
  keyword: string;
  /** What is wrong, e.g. `must match format "email"`. */
  message: string;
  /** For `required`: the missing property, which is not part of `path`. */
  missingProperty?: string | undefined;
}

/** Checks a value against one compiled schema; an empty list means it is valid. */
export type JsonSchemaCheck = (value: unknown) => JsonSchemaIssue[];

/** Compiles JSON Schemas with the shared set-up. */
export interface JsonSchemaCompiler {
  /** Compiles a schema; throws `invalid_json_schema` when it is not a schema that can be checked. */
  compile(schema: JsonSchemaObject): JsonSchemaCheck;
}

// allErrors: report every problem at once, so one re-ask can fix them all. strict: false because
// model-facing schemas carry annotation keywords (examples, x-…) that strict mode rejects.
const options: Options = { allErrors: true, strict: false };

// ajv-formats is CommonJS: depending on the loader its default import is the plugin or its module object.
const formatsPlugin = ((addFormats as unknown as { default?: unknown }).default ?? addFormats) as (
  ajv: Ajv,
) => Ajv;

/**
 * The dialect a schema declares with `$schema`: draft-04 to draft-07 read as draft-07, anything else
 * (including no `$schema`) as 2020-12, the dialect MCP specifies for tool schemas.
 */
export function jsonSchemaDialect(schema: JsonSchemaObject): JsonSchemaDialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(declared) ? 'draft-07' : '2020-12';
}

function decodePointer(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function toIssue(error: ErrorObject): JsonSchemaIssue {
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: unknown }) : undefined;
  return {
    path: decodePointer(error.instancePath),
    keyword: error.keyword,
    message: error.message ?? `failed ${error.keyword}`,
    ...(missing?.missingProperty !== undefined ? { missingProperty: String(missing.missingProperty) } : {}),
  };
}

/**
 * Creates a compiler with Patchbay's one JSON Schema set-up: ajv 8 with every error reported,
 * non-strict, formats checked (ajv-formats: email, date-time, uri, uuid, …), and the dialect taken
 * from `$schema` (see `jsonSchemaDialect`). A schema's `$id` is not registered, so two schemas that
 * share an `$id` both compile. Each compiler holds its own ajv instances and their cache.
 */
export function createJsonSchemaCompiler(): JsonSchemaCompiler {
  const draft07 = new Ajv(options);
  const draft2020 = new Ajv2020(options);
  formatsPlugin(draft07);
  formatsPlugin(draft2020 as unknown as Ajv);
  return {
    compile(schema) {
      const ajv = jsonSchemaDialect(schema) === 'draft-07' ? draft07 : draft2020;
      const { $id: _id, ...anonymous } = schema;
      let validate: ReturnType<Ajv['compile']>;
      try {
        validate = ajv.compile(anonymous);
      } catch (error) {
        throw new PatchbayError(
          'invalid_json_schema',
          `Not a JSON Schema that can be checked: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      return (value) => (validate(value) ? [] : (validate.errors ?? []).map(toIssue));
    },
  };
}
