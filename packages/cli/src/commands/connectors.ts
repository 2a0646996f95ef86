import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import type { CliRuntime } from '../runtime.js';
import { formatTable } from '../table.js';

/** Every installed connector's status for a subject, as `patchbay connectors --json` lists them. */
export interface ConnectorStatusItems {
  items: Record<string, unknown>[];
  capturedAt: string;
  unknownConnectorIds: string[];
}

/**
 * Reads every installed connector's status for a subject: status, scopes, tools, identity (never
 * one that echoes a credential), error, rate-limit end, last verification and setup URL. What
 * `patchbay connectors` and the console both show.
 */
export async function connectorStatusItems(
  runtime: CliRuntime,
  subject: string,
): Promise<ConnectorStatusItems> {
  // Loaded on demand: the protocol package (and its tokenizer) is only needed by status commands.
  const [{ captureStatus, connectorStatusWire }, { displayIdentity }] = await Promise.all([
    import('@patchbay/protocol'),
    import('@patchbay/helpers'),
  ]);
  const connectors = await runtime.connectors();
  const store = runtime.store();
  const [snapshot, summaries, state] = await Promise.all([
    captureStatus({ connectors, source: store, subject }),
    store.listConnections(subject),
    store.load(subject),
  ]);
  // Rows written before identities were checked may hold one that echoes the token: never print it.
  const credentialsOf = new Map(state.connections.map((connection) => [connection.connectorId, connection]));
  const secretFieldsOf = new Map(
    connectors.map((connector) => [
      connector.id,
      connector.auth.fields.filter((field) => field.secret !== false).map((field) => field.name),
    ]),
  );
  const identities = new Map(
    summaries.map((summary) => [
      summary.connectorId,
      displayIdentity(
        summary.identity,
        credentialsOf.get(summary.connectorId)?.credentials,
        secretFieldsOf.get(summary.connectorId),
      ),
    ]),
  );
  const wire = connectorStatusWire(snapshot, { connectors, includeDisabled: true });
  const items = connectors.map((connector) => {
    const entry = snapshot.connectors[connector.id]!;
    const view = wire[connector.id] as Record<string, unknown> | undefined;
    const item: Record<string, unknown> = {
      id: connector.id,
      name: connector.name,
      status: entry.status,
      scopes: entry.status === 'connected' ? entry.scopes : [],
      tools: (view?.tools as string[] | undefined) ?? [],
    };
    const identity = identities.get(connector.id);
    if (identity && entry.status === 'connected') item.identity = identity;
    if (entry.error !== undefined) item.error = entry.error;
    if (entry.retryAfter !== undefined) item.retry_after = entry.retryAfter;
    if (entry.verifiedAt !== undefined) item.verified_at = entry.verifiedAt;
    if (entry.status !== 'connected' && entry.status !== 'disabled_by_admin')
      item.setup_url = connector.setupUrl;
    return item;
  });
  return { items, capturedAt: snapshot.capturedAt, unknownConnectorIds: snapshot.unknownConnectorIds };
}

/** `patchbay connectors`: every installed connector and its status for the subject. */
export const connectorsCommand: Command = {
  name: 'connectors',
  usage: '',
  summary: 'List installed connectors and their status for the user',
  examples: ['patchbay connectors', 'patchbay connectors --user alice --json'],
  options: {},
  positionals: { required: [] },
  async run(runtime) {
    const { subject } = runtime.settings;
    const { items, capturedAt, unknownConnectorIds } = await connectorStatusItems(runtime, subject);
    if (runtime.settings.json) {
      runtime.printJson({
        subject,
        captured_at: capturedAt,
        connectors: items,
        unknown_connector_ids: unknownConnectorIds,
      });
      return exitCodes.ok;
    }
    if (items.length === 0) {
      runtime.print(
        'No connectors installed. Install @patchbay/connector-* (or patchbay-connector-*) packages or list modules in patchbay.config.json.',
      );
      return exitCodes.ok;
    }
    const detail = (item: Record<string, unknown>) =>
      (item.identity as string | undefined) ??
      (item.error as string | undefined) ??
      (item.retry_after ? `until ${item.retry_after}` : undefined) ??
      (item.setup_url as string | undefined) ??
      '';
    runtime.print(
      formatTable(
        ['ID', 'NAME', 'STATUS', 'SCOPES', 'TOOLS', 'DETAIL'],
        items.map((item) => [
          item.id as string,
          item.name as string,
          item.status as string,
          (item.scopes as string[]).join(',') || '-',
          String((item.tools as string[]).length),
          detail(item),
        ]),
      ),
    );
    if (unknownConnectorIds.length > 0) {
      runtime.note(`Stored state for connectors that are not installed: ${unknownConnectorIds.join(', ')}`);
    }
    return exitCodes.ok;
  },
};
