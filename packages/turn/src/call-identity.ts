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

/** The schema a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`) points at; undefined for any other. */
function refTarget(schema: SchemaObject, root: SchemaObject): SchemaObject | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  let target: unknown = root;
  for (const segment of ref.slice(1).split('/').filter(Boolean)) {
    if (!isSchemaObject(target)) return undefined;
    target = target[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return isSchemaObject(target) ? target : undefined;
}

/**
 * The schema and the schemas its `$ref` chain points at, in that order. A `$ref` does not replace the
 * keys beside it (JSON Schema 2019-09 on, and what pydantic publishes: `{ $ref, default }`): both apply.
 */
function refChain(schema: SchemaObject, root: SchemaObject): SchemaObject[] {
  const chain = [schema];
  let current = schema;
  for (let hops = 0; hops < maxBranches; hops += 1) {
    const target = refTarget(current, root);
    if (!target) break;
    chain.push(target);
    current = target;
  }
  return chain;
}

/** The schema and every branch of its `$ref` chain and its `allOf` / `anyOf` / `oneOf`. */
function branchesOf(schema: SchemaObject, root: SchemaObject): SchemaObject[] {
  const branches: SchemaObject[] = [];
  const queue = [schema];
  while (queue.length > 0 && branches.length < maxBranches) {
    for (const branch of refChain(queue.shift()!, root)) {
      if (branches.length >= maxBranches) break;
      branches.push(branch);
      for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
        const list = branch[combinator];
        if (Array.isArray(list)) queue.push(...list.filter(isSchemaObject));
      }
    }
  }
  return branches;
}

const unionOf = (schemas: readonly SchemaObject[]): SchemaObject =>
  schemas.length === 1 ? schemas[0]! : { anyOf: [...schemas] };

/**
 * The value as a tool reading it through `schema` sees it: keys the schema does not declare are
 * dropped, as zod drops them, unless it says anything of extra keys (`additionalProperties`, which
 * `false` makes a refusal, or `patternProperties`); declared defaults are filled in, also one written
 * beside a `$ref`. An object schema that
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
  // Undeclared keys are kept where a schema admits them (the tool receives them) and where one
  // forbids them (`additionalProperties: false`: the gate refuses the call, so it is another call
  // than the one without them, not a repeat of it).
  let keepsUndeclared = false;
  for (const branch of branches) {
    if (isSchemaObject(branch.properties)) {
      for (const [key, property] of Object.entries(branch.properties)) {
        if (isSchemaObject(property)) declared.set(key, [...(declared.get(key) ?? []), property]);
      }
    }
    if (branch.additionalProperties !== undefined || branch.patternProperties !== undefined) {
      keepsUndeclared = true;
    }
  }
  if (declared.size === 0) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const properties = declared.get(key);
    if (properties) result[key] = project(inner, unionOf(properties), root, depth + 1);
    else if (keepsUndeclared) result[key] = inner;
  }
  for (const [key, properties] of declared) {
    if (key in result) continue;
    const withDefault = properties
      .flatMap((property) => refChain(property, root))
      .find((schema) => 'default' in schema);
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
