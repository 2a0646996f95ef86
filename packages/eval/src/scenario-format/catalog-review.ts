// The checks that depend on what is installed: connector ids, tool names and their input fields,
// scopes, service responses, baselines and external data. They read the raw document defensively, so
// they report alongside the schema's problems instead of after they are fixed.
import type { Connector } from '@patchbay/connector';
import { refreshConnectorStatusToolName } from '@patchbay/protocol';
import {
  type CatalogTool,
  type DataPath,
  entriesOf,
  type FoundProblem,
  isRecord,
  itemsOf,
  type RawMap,
  type ScenarioCatalog,
} from './catalog.js';
import { closestName } from './closest-name.js';
import { shapeOf } from './schema-walk.js';

/** The tools a scenario may name, by name. */
export type ToolsByName = Map<string, CatalogTool>;

/** What the checks of one `expect` block know of its scenario. */
export interface ExpectContext {
  tools: ToolsByName;
  connectors: readonly Connector[];
  /** The scenario runs on the real packages (`packages:`). */
  packaged: boolean;
  /** MCP servers and memory: names the status block may show beside the connectors. */
  serverIds?: readonly string[];
  memory?: boolean;
  mcp?: boolean;
}

/** The status each key of a connector state applies to. */
const stateKeyStatus = { scopes: 'connected', error: 'invalid_credentials', retry_after_s: 'rate_limited' };

/** The keys of `expect` that need the real packages' service. */
const serviceKeys = ['requested', 'no_service_requests', 'service_requests', 'service_aborted'];

/** Collects the catalog's problems of one document (see {@link catalogProblems}). */
export class CatalogReview {
  readonly problems: FoundProblem[] = [];

  constructor(readonly catalog: ScenarioCatalog) {}

  report(
    path: DataPath,
    message: string,
    options: { atKey?: boolean; suggestion?: string | undefined } = {},
  ) {
    this.problems.push({ path, message, ...options });
  }

  /** A name not in `known`, with the known name it likely meant. `what`: a kind, or a kind and its owner. */
  unknown(
    path: DataPath,
    what: string | [string, string],
    name: unknown,
    known: readonly string[],
    atKey = false,
  ) {
    if (typeof name !== 'string' || known.includes(name)) return;
    const [kind, owner] = Array.isArray(what) ? what : [what];
    this.report(path, `unknown ${kind} "${name}"${owner ? ` of ${owner}` : ''}`, {
      atKey,
      suggestion: closestName(name, known),
    });
  }

  /** A key whose extension the project's eval config does not provide cannot run there. */
  needsExtension(container: unknown, key: string, path: DataPath, extension: string, present: unknown) {
    if (isRecord(container) && key in container && !present)
      this.report([...path, key], `"${key}" needs \`${extension}\` in the eval config`, { atKey: true });
  }

  /** The connectors a scenario runs on: those `packages:` names, else the catalog's. */
  connectorsOf(scenario: RawMap): readonly Connector[] {
    return Array.isArray(scenario.packages)
      ? scenario.packages
          .map((id) => this.catalog.packages?.[id as string])
          .filter((connector): connector is Connector => Boolean(connector))
      : this.catalog.connectors;
  }

  /** Every tool of `connectors`, and the status refresh every turn has. */
  toolsOf(connectors: readonly Connector[]): ToolsByName {
    return new Map<string, CatalogTool>([
      ...connectors.flatMap((connector) =>
        connector.tools.map((tool): [string, CatalogTool] => [tool.name, tool]),
      ),
      [refreshConnectorStatusToolName, { name: refreshConnectorStatusToolName }],
    ]);
  }

  checkStates(states: unknown, path: DataPath, connectors: readonly Connector[]) {
    const ids = connectors.map((candidate) => candidate.id);
    for (const [id, raw] of entriesOf(states)) {
      const connector = connectors.find((candidate) => candidate.id === id);
      this.unknown([...path, id], 'connector', id, ids, true);
      const state = typeof raw === 'string' ? { status: raw } : raw;
      if (!isRecord(state)) continue;
      for (const [key, status] of Object.entries(stateKeyStatus))
        if (key in state && state.status !== status)
          this.report([...path, id, key], `"${key}" applies only to status ${status}`, { atKey: true });
      const scopes = (connector?.auth.scopes ?? []).map((scope) => scope.name);
      for (const [index, scope] of itemsOf(state.scopes))
        this.unknown([...path, id, 'scopes', index], ['scope', id], scope, scopes);
    }
  }

  checkTool(path: DataPath, name: unknown, tools: ToolsByName) {
    this.unknown(path, 'tool', name, [...tools.keys()]);
  }

  checkArguments(path: DataPath, name: unknown, field: unknown, tools: ToolsByName) {
    const fields = Object.keys(shapeOf(tools.get(name as string)?.input));
    if (fields.length > 0) this.unknown(path, ['input field', String(name)], field, fields);
  }

  checkExpect(expect: unknown, path: DataPath, context: ExpectContext) {
    if (!isRecord(expect)) return;
    const { tools, connectors, packaged, serverIds = [], memory = false, mcp = false } = context;
    for (const key of ['exposed_include', 'exposed_exclude', 'called_ok', 'not_called'])
      for (const [index, name] of itemsOf(expect[key])) this.checkTool([...path, key, index], name, tools);
    for (const [index, check] of itemsOf(expect.args)) {
      if (!isRecord(check)) continue;
      this.checkTool([...path, 'args', index, 'tool'], check.tool, tools);
      this.checkArguments([...path, 'args', index, 'field'], check.tool, check.field, tools);
    }
    for (const [index, check] of itemsOf(expect.envelopes))
      if (isRecord(check)) this.checkTool([...path, 'envelopes', index, 'tool'], check.tool, tools);
    for (const key of ['ran', 'called'])
      for (const [name] of entriesOf(expect[key]))
        this.unknown([...path, key, name], 'tool', name, [...tools.keys()], true);
    const ids = [...connectors.map((connector) => connector.id), ...serverIds];
    if (!memory && 'memory' in expect)
      this.report([...path, 'memory'], '"memory" checks need `memory:` on the scenario', { atKey: true });
    if (!mcp && 'server_calls' in expect)
      this.report([...path, 'server_calls'], '"server_calls" needs `mcp:` on the scenario', { atKey: true });
    for (const [id] of entriesOf(expect.status_block))
      this.unknown([...path, 'status_block', id], 'connector', id, ids, true);
    if (!packaged)
      for (const key of serviceKeys)
        if (key in expect)
          this.report([...path, key], `"${key}" needs \`packages:\` (stand-in connectors send no requests)`, {
            atKey: true,
          });
  }

  checkRoutes(routes: unknown, path: DataPath) {
    if (routes !== undefined && !this.catalog.responses) return;
    for (const [key, value] of entriesOf(routes)) {
      const name = typeof value === 'string' ? value : isRecord(value) ? value.response : undefined;
      const at = typeof value === 'string' ? [...path, key] : [...path, key, 'response'];
      this.unknown(at, 'service response', name, this.catalog.responses ?? []);
    }
  }

  checkTargets(targets: unknown, path: DataPath) {
    for (const [index, name] of itemsOf(targets))
      this.unknown([...path, index], 'baseline', name, this.catalog.baselines ?? []);
  }
}
