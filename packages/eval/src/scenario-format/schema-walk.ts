// Walking the scenario schema: the object under its wrappers, the schema a data path leads to. The
// docs tables and the "did you mean" of an unknown key both read the schema this way.
import type { z } from 'zod';

/** Any schema, as the union of zod's schema kinds (so its definition narrows by `type`). */
type AnySchema = z.core.$ZodTypes;

const definitionOf = (schema: z.core.$ZodType) => (schema as AnySchema)._zod.def;

/** The object schema under wrappers (optional, default, preprocess), or undefined. */
export function objectOf(schema: z.core.$ZodType | undefined): z.core.$ZodObject | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const definition = definitionOf(current);
    if (definition.type === 'object') return current as z.core.$ZodObject;
    current =
      definition.type === 'optional' || definition.type === 'default'
        ? definition.innerType
        : definition.type === 'pipe'
          ? definition.out
          : undefined;
  }
  return undefined;
}

/** The keys of the object schema under `schema`'s wrappers, each with its schema; `{}` for none. */
export function shapeOf(schema: z.core.$ZodType | undefined): Record<string, z.core.$ZodType> {
  const object = objectOf(schema);
  return object ? object._zod.def.shape : {};
}

/** The schema a data path leads to from `schema`, following objects, records, arrays and wrappers. */
export function schemaAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (const segment of path) {
    if (!current) return undefined;
    let definition = definitionOf(current);
    while (definition.type === 'optional' || definition.type === 'default' || definition.type === 'pipe') {
      current = definition.type === 'pipe' ? definition.out : definition.innerType;
      definition = definitionOf(current);
    }
    if (definition.type === 'object') current = definition.shape[String(segment)];
    else if (definition.type === 'record') current = definition.valueType;
    else if (definition.type === 'array') current = definition.element;
    else return undefined;
  }
  return current;
}

/** Whether a key's schema is optional (the docs mark the others required). */
export const isOptional = (schema: z.core.$ZodType) => definitionOf(schema).type === 'optional';
