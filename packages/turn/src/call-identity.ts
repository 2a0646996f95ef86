import type { JsonSchema } from '@patchbay/connector';
import { canonicalJson } from '@patchbay/helpers';

/** What the turn knows of a tool's input contract: its zod schema (connector tools) and its JSON Schema. */
export interface ToolInputContract {
  /** The schema the tool's own `execute` input is parsed with, when the turn has it. */
  input?: { safeParse(value: unknown): { success: boolean; data?: unknown } } | undefined;
  /** The JSON Schema the gate validates against and the model is shown. */
  inputJsonSchema?: JsonSchema | undefined;
}

type SchemaObject = Record<string, unknown>;

/** Below this depth arguments are compared as written: nothing a tool declares goes that deep. */
const maxProjectionDepth = 64;
/** Bounds `$ref` chains and combinator fan-out, so a hostile schema cannot make this loop. */
const maxBranches = 64;

const isSchemaObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  isSchemaObject(value) && Object.getPrototypeOf(value) === Object.prototype;

/** Follows a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`); any other reference stays unresolved. */
function resolveRef(schema: SchemaObject, root: SchemaObject): SchemaObject {
  let current = schema;
  for (let hops = 0; hops < maxBranches && typeof current.$ref === 'string'; hops += 1) {
    const ref = current.$ref;
    if (!ref.startsWith('#')) return current;
    let target: unknown = root;
    for (const segment of ref.slice(1).split('/').filter(Boolean)) {
      if (!isSchemaObject(target)) return current;
      target = target[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    if (!isSchemaObject(target)) return current;
    current = target;
  }
  return current;
}

/** The schema and every branch of its `allOf` / `anyOf` / `oneOf`, references resolved. */
function branchesOf(schema: SchemaObject, root: SchemaObject): SchemaObject[] {
  const branches: SchemaObject[] = [];
  const queue = [schema];
  while (queue.length > 0 && branches.length < maxBranches) {
    const branch = resolveRef(queue.shift()!, root);
    branches.push(branch);
    for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = branch[combinator];
      if (Array.isArray(list)) queue.push(...list.filter(isSchemaObject));
    }
  }
  return branches;
}

const unionOf = (schemas: readonly SchemaObject[]): SchemaObject =>
  schemas.length === 1 ? schemas[0]! : { anyOf: [...schemas] };

/**
 * The value as a tool reading it through `schema` sees it: keys the schema does not declare are
 * dropped unless it admits extra keys (`additionalProperties` other than `false`,
 * `patternProperties`), as zod drops them; declared defaults are filled in. An object schema that
 * declares no properties says nothing about keys, so its value is kept whole.
 */
function project(value: unknown, schema: SchemaObject, root: SchemaObject, depth: number): unknown {
  if (depth > maxProjectionDepth) return value;
  const branches = branchesOf(schema, root);
  if (Array.isArray(value)) {
    const items = branches.map((branch) => branch.items).filter(isSchemaObject);
    if (items.length === 0) return value;
    const itemSchema = unionOf(items);
    return value.map((item) => project(item, itemSchema, root, depth + 1));
  }
  if (!isPlainObject(value)) return value;
  const declared = new Map<string, SchemaObject[]>();
  let admitsExtraKeys = false;
  for (const branch of branches) {
    if (isSchemaObject(branch.properties)) {
      for (const [key, property] of Object.entries(branch.properties)) {
        if (isSchemaObject(property)) declared.set(key, [...(declared.get(key) ?? []), property]);
      }
    }
    const extra = branch.additionalProperties;
    if ((extra !== undefined && extra !== false) || branch.patternProperties !== undefined) {
      admitsExtraKeys = true;
    }
  }
  if (declared.size === 0) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const properties = declared.get(key);
    if (properties) result[key] = project(inner, unionOf(properties), root, depth + 1);
    else if (admitsExtraKeys) result[key] = inner;
  }
  for (const [key, properties] of declared) {
    if (key in result) continue;
    const withDefault = properties.map((property) => resolveRef(property, root)).find((p) => 'default' in p);
    if (withDefault) result[key] = withDefault.default;
  }
  return result;
}

/** The arguments as the tool will receive them, as far as its contract tells. */
function asReceived(args: unknown, contract: ToolInputContract | undefined): unknown {
  if (contract?.input) {
    try {
      // What the tool's execute is given: unknown keys stripped, defaults filled, strings trimmed...
      const parsed = contract.input.safeParse(args ?? {});
      if (parsed.success) return parsed.data;
    } catch {
      // Async refinements cannot run synchronously; the JSON Schema still tells the keys.
    }
  }
  const schema = contract?.inputJsonSchema;
  return isSchemaObject(schema) ? project(args ?? {}, schema, schema, 0) : args;
}

/**
 * The identity of a call for the "never twice" checks: the tool name and the canonical JSON of the
 * arguments as the tool will receive them. Comparing the model's raw arguments let a model repeat a
 * write by adding an unknown key each time (zod strips it, the tool ran again). Arguments that cannot
 * be canonicalised (too deep, cyclic) fall back to the text the model sent, so this never throws.
 */
export function callIdentity(
  toolName: string,
  call: { input: string; arguments: { ok: true; value: unknown } | { ok: false } },
  contract: ToolInputContract | undefined,
): string {
  if (call.arguments.ok) {
    try {
      return `${toolName}\u0000${canonicalJson(asReceived(call.arguments.value, contract))}`;
    } catch {
      // Falls through to the raw text: still an identity, and the gate answers the arguments.
    }
  }
  return `${toolName}\u0000raw:${call.input}`;
}
