import { PatchbayError } from '@patchbay/envelope';
import { z } from 'zod';
import type { Connector, ConnectorDefinition, ConnectorManifest } from './connector.js';
import { authSchema, type Scope } from './credentials.js';
import { isTool } from './define-tool.js';
import type { AnyTool, ScopeImplication } from './tool.js';
import { formatDefinitionIssues } from './validation.js';
import { verifyFailure } from './verify-failure.js';

/** True for `scheme://host[:port]` with nothing after it, as `URL.origin` writes it. */
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/** Zod schema of a {@link ConnectorDefinition}, checked at definition time. */
export const connectorDefinitionSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9]*$/, 'must be lowercase letters and digits (it prefixes tool names)'),
  name: z.string().trim().min(1),
  description: z.string().trim().min(1),
  auth: authSchema,
  capabilities: z.array(z.string().trim().min(1)).min(1, 'declare at least one capability'),
  wouldEnable: z.array(z.string().trim().min(1)).min(1, 'say what connecting would enable'),
  setupUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  docsUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  origin: z.string().refine(isOrigin, 'must be an origin such as https://api.example.com').optional(),
  defaultOrigin: z.string().refine(isOrigin, 'must be an origin such as https://api.example.com').optional(),
  tools: z
    .array(z.custom<AnyTool>(isTool, 'must be created with defineTool'))
    .min(1, 'declare at least one tool'),
  verify: z.custom<ConnectorDefinition['verify']>(
    (value) => typeof value === 'function',
    'must be a function',
  ),
});

/**
 * Validates a connector and freezes it as a `v1` plugin. Throws a `PatchbayError`
 * (`invalid_definition`) naming the bad field: a tool not prefixed by the id, duplicate tool names,
 * a tool scope the auth declaration does not list, a tool requiring its own connector.
 */
export function defineConnector(definition: ConnectorDefinition): Connector {
  const label = `connector "${typeof definition?.id === 'string' ? definition.id : '?'}"`;
  if (typeof definition !== 'object' || definition === null) {
    throw new PatchbayError('invalid_definition', `${label}: (root): must be an object`);
  }
  const parsed = connectorDefinitionSchema.safeParse(definition);
  if (!parsed.success) {
    throw new PatchbayError('invalid_definition', `${label}: ${formatDefinitionIssues(parsed.error)}`);
  }
  const { id, auth } = parsed.data;
  const declaredScopes = new Set<string>();
  auth.scopes.forEach((scope, index) => {
    if (declaredScopes.has(scope.name)) {
      throw new PatchbayError(
        'invalid_definition',
        `${label}: auth.scopes.${index}.name: duplicate scope "${scope.name}"`,
      );
    }
    declaredScopes.add(scope.name);
  });
  const impliedScopes = scopeImplication(label, auth.scopes, declaredScopes);
  const fieldNames = new Set<string>();
  auth.fields.forEach((field, index) => {
    if (fieldNames.has(field.name)) {
      throw new PatchbayError(
        'invalid_definition',
        `${label}: auth.fields.${index}.name: duplicate field "${field.name}"`,
      );
    }
    fieldNames.add(field.name);
  });
  const seen = new Set<string>();
  const secretCredentialFields = Object.freeze(
    auth.fields.filter((field) => field.secret !== false).map((field) => field.name),
  );
  const tools = definition.tools.map((tool, index) => {
    const field = `tools.${index} (${tool.name})`;
    if (!tool.name.startsWith(`${id}_`)) {
      throw new PatchbayError('invalid_definition', `${label}: ${field}.name: must start with "${id}_"`);
    }
    if (seen.has(tool.name)) {
      throw new PatchbayError('invalid_definition', `${label}: ${field}.name: duplicate tool name`);
    }
    seen.add(tool.name);
    const unknownScope = tool.requiredScopes.find((scope) => !declaredScopes.has(scope));
    if (unknownScope !== undefined) {
      throw new PatchbayError(
        'invalid_definition',
        `${label}: ${field}.requiredScopes: "${unknownScope}" is not declared in auth.scopes`,
      );
    }
    if (tool.requires.includes(id)) {
      throw new PatchbayError(
        'invalid_definition',
        `${label}: ${field}.requires: a tool cannot require its own connector`,
      );
    }
    return Object.freeze({ ...tool, connectorId: id, secretCredentialFields, impliedScopes });
  });
  return Object.freeze({
    ...definition,
    ...parsed.data,
    specificationVersion: 'v1' as const,
    auth: {
      kind: auth.kind,
      scopes: auth.scopes,
      fields: auth.fields.map((field) => ({ ...field, secret: field.secret ?? true })),
    },
    tools: Object.freeze(tools) as AnyTool[],
    verify: neverThrowing(definition.verify),
  });
}

/**
 * Closes each scope's `implies` transitively (`admin:org` → `write:org` → `read:org`). Only declared
 * scopes may be implied, so a typo fails at definition time rather than granting nothing.
 */
function scopeImplication(
  label: string,
  scopes: readonly Scope[],
  declared: ReadonlySet<string>,
): ScopeImplication {
  const direct = new Map(scopes.map((scope) => [scope.name, scope.implies ?? []]));
  scopes.forEach((scope, index) => {
    const unknown = (scope.implies ?? []).find((name) => !declared.has(name));
    if (unknown !== undefined) {
      throw new PatchbayError(
        'invalid_definition',
        `${label}: auth.scopes.${index}.implies: "${unknown}" is not declared in auth.scopes`,
      );
    }
  });
  const closed: Record<string, readonly string[]> = {};
  for (const scope of scopes) {
    if (!scope.implies?.length) continue;
    const seen = new Set<string>();
    const stack = [...scope.implies];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (next === scope.name || seen.has(next)) continue;
      seen.add(next);
      stack.push(...(direct.get(next) ?? []));
    }
    closed[scope.name] = Object.freeze([...seen].sort());
  }
  return Object.freeze(closed);
}

/**
 * Holds `verify` to its contract whatever its author wrote: a throw (synchronous or not) becomes a
 * `VerifyResult` through `verifyFailure`, which never repeats the error's text, so no caller has to
 * guard it and no credential in a message can reach a log.
 */
function neverThrowing(verify: ConnectorDefinition['verify']): ConnectorDefinition['verify'] {
  return async (credentials, options) => {
    try {
      return await verify(credentials, options);
    } catch (error) {
      return verifyFailure(error);
    }
  };
}

/** The serialisable manifest of a connector, e.g. for a catalog or `patchbay connectors --json`. */
export function connectorManifest(connector: Connector): ConnectorManifest {
  const manifest: ConnectorManifest = {
    specificationVersion: connector.specificationVersion,
    id: connector.id,
    name: connector.name,
    description: connector.description,
    auth: connector.auth,
    capabilities: [...connector.capabilities],
    wouldEnable: [...connector.wouldEnable],
    setupUrl: connector.setupUrl,
    tools: connector.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      effect: tool.effect,
      requiredScopes: [...tool.requiredScopes],
      requires: [...tool.requires],
      inputJsonSchema: tool.inputJsonSchema,
    })),
  };
  if (connector.docsUrl !== undefined) manifest.docsUrl = connector.docsUrl;
  return manifest;
}
