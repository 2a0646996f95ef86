import {
  type AnyTool,
  type AuthKind,
  type Connector,
  type ConnectorDefinition,
  type CredentialField,
  defineConnector,
  defineTool,
  isTool,
  type Scope,
  type ToolContext,
  type ToolEffect,
} from '@patchbay/connector';
import { type Envelope, success } from '@patchbay/envelope';
import { z } from 'zod';

/**
 * A stand-in tool described by what a test cares about; everything else gets a default. For a
 * tool whose `execute` reads typed input, pass a `defineTool(...)` instead.
 */
export interface FixtureToolSpec {
  /** Prefixed with the connector id, e.g. `tracker_list_issues`. */
  name: string;
  /** Defaults to "Stand-in tool <name>." */
  description?: string;
  /** Defaults to an object with no fields. */
  input?: z.ZodType;
  /** Defaults to `read`. */
  effect?: ToolEffect;
  /** Declared on the connector automatically. */
  requiredScopes?: string[];
  /** Other connector ids that must be connected too. */
  requires?: string[];
  /** Defaults to answering `success({})` without touching any network. */
  execute?: (input: unknown, context: ToolContext) => Promise<Envelope>;
}

/** Options of {@link createFixtureConnector}: an id and tools; the rest has test-friendly defaults. */
export interface FixtureConnectorOptions {
  /** Lowercase letters and digits; prefixes every tool name. */
  id: string;
  /** `defineTool` results or {@link FixtureToolSpec}s. */
  tools: readonly (AnyTool | FixtureToolSpec)[];
  /**
   * Scopes the connector declares, by name (described as "<name> access") or in full. Scopes the
   * tools require are declared too, so a fixture never fails `defineConnector` for a missing one.
   */
  scopes?: readonly (string | Scope)[];
  /** Defaults to the id with a capital first letter. */
  name?: string;
  /** Defaults to "<name>, a stand-in service for tests." */
  description?: string;
  /** Auth kind and credential fields; `bearer` with one secret `token` field by default. */
  auth?: { kind?: AuthKind; fields?: CredentialField[] };
  /** Defaults to one entry per tool, from its description. */
  capabilities?: string[];
  /** Defaults to "Use <name> from chat". */
  wouldEnable?: string[];
  /** Defaults to `https://<id>.test/connect`. */
  setupUrl?: string;
  /** Optional documentation link. */
  docsUrl?: string;
  /** Defaults to accepting any credentials and granting every declared scope. */
  verify?: ConnectorDefinition['verify'];
}

function toTool(tool: AnyTool | FixtureToolSpec): AnyTool {
  if (isTool(tool)) return tool;
  const spec = tool;
  return defineTool({
    name: spec.name,
    description: spec.description ?? `Stand-in tool ${spec.name}.`,
    input: spec.input ?? z.object({}),
    effect: spec.effect ?? 'read',
    requiredScopes: spec.requiredScopes ?? [],
    requires: spec.requires ?? [],
    execute: spec.execute ?? (async () => success({})),
  });
}

/**
 * A real connector (validated by `defineConnector`) for tests of the gate, the turn loop, MCP and
 * stores, with only the fields a test cares about written out. Its tools never touch a network
 * unless their `execute` does.
 */
export function createFixtureConnector(options: FixtureConnectorOptions): Connector {
  const tools = options.tools.map(toTool);
  const scopes = new Map<string, Scope>();
  for (const scope of options.scopes ?? []) {
    const full = typeof scope === 'string' ? { name: scope, description: `${scope} access` } : scope;
    scopes.set(full.name, full);
  }
  for (const tool of tools) {
    for (const scope of tool.requiredScopes) {
      if (!scopes.has(scope)) scopes.set(scope, { name: scope, description: `${scope} access` });
    }
  }
  const name = options.name ?? `${options.id.charAt(0).toUpperCase()}${options.id.slice(1)}`;
  const declared = [...scopes.values()];
  const definition: ConnectorDefinition = {
    id: options.id,
    name,
    description: options.description ?? `${name}, a stand-in service for tests.`,
    auth: {
      kind: options.auth?.kind ?? 'bearer',
      scopes: declared,
      ...(options.auth?.fields ? { fields: options.auth.fields } : {}),
    },
    capabilities: options.capabilities ?? tools.map((tool) => tool.description),
    wouldEnable: options.wouldEnable ?? [`Use ${name} from chat`],
    setupUrl: options.setupUrl ?? `https://${options.id}.test/connect`,
    tools,
    verify: options.verify ?? (async () => ({ valid: true, scopes: declared.map((scope) => scope.name) })),
  };
  if (options.docsUrl !== undefined) definition.docsUrl = options.docsUrl;
  return defineConnector(definition);
}
