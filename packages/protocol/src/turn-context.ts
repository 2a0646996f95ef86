import type { Connector, ConnectorStatus, StatusSnapshot } from '@patchbay/connector';
import { expandScopes, toolAvailability } from '@patchbay/helpers';
import { type Clock, readClock, toIsoSeconds } from './iso-time.js';
import { type JsonValue, stableStringify } from './stable-json.js';

/** One connector in the `<connector_status>` block, as the model reads it (snake_case wire shape). */
export type ConnectorStatusWire =
  | { status: 'connected'; scopes: string[]; tools: string[] }
  /** An MCP server that is up: its tools (servers have no scopes). */
  | { status: 'connected'; tools: string[] }
  /** An MCP server that is down or still starting; `retry_after` when a reconnect is scheduled. */
  | { status: 'unavailable'; retry_after?: string }
  | {
      /** Every status not drawn above (from `connectorStatuses`): a new one lands here, with setup fields. */
      status: Exclude<ConnectorStatus, 'connected' | 'unavailable' | 'disabled_by_admin'>;
      setup_url?: string;
      /** An MCP server that needs a sign-in: the command that makes it (`patchbay connect <server>`). */
      setup_command?: string;
      would_enable?: string[];
      error?: string;
      retry_after?: string;
    }
  /** Only when the deployment renders admin-disabled connectors (`includeDisabled`); `reason` as seed 000 has it. */
  | { status: 'disabled_by_admin'; reason: string };

/** The `reason` of a disabled entry when the deployment gives none for the connector. */
export const defaultDisabledReason = 'Disabled by an administrator';

/**
 * One MCP server as the status block shows it (DESIGN: "MCP servers are connectors"). The caller
 * decides: up → `connected` with the tools it offers now; down or starting → `unavailable`;
 * admin-disabled or stopped servers are not passed at all.
 */
export type ServerStatus =
  | { id: string; status: 'connected'; tools: readonly string[] }
  | {
      id: string;
      status: 'unavailable';
      /** ISO time of the scheduled reconnect, when one is scheduled. */
      retryAfter?: string | undefined;
    }
  /**
   * A remote server that needs an OAuth sign-in: `not_configured` when this subject never signed
   * in, `invalid_credentials` when the authorization server refused the stored sign-in (revoked).
   */
  | {
      id: string;
      status: Extract<ConnectorStatus, 'not_configured' | 'invalid_credentials'>;
      /** How to sign in, e.g. `patchbay connect notes`. */
      setupCommand?: string | undefined;
      /** Why the stored sign-in was refused (`invalid_credentials` only); no secret. */
      error?: string | undefined;
    };

/** Options shared by {@link connectorStatusWire} and {@link renderTurnContext}. */
export interface ConnectorStatusWireOptions {
  /** Installed connectors: source of setup URLs, would-enable phrases and tool names. */
  connectors: readonly Connector[];
  /**
   * MCP servers to show beside the connectors, keyed by server name in the same sorted object. A
   * server named like an installed connector is left out: the connector's entry is the one the gate
   * and the user act on.
   */
  servers?: readonly ServerStatus[];
  /**
   * Render `disabled_by_admin` entries (status and `reason`). Off by default: the model must not
   * learn of them.
   */
  includeDisabled?: boolean;
  /** The `reason` of each rendered disabled entry by connector id ("Organization policy"); default {@link defaultDisabledReason}. */
  disabledReasons?: Readonly<Record<string, string>>;
  /**
   * The app's own `setup_url` per connector id (its settings page), used instead of the connector's
   * `setupUrl` so an app need not copy the connector object to point users at its own page.
   */
  setupUrls?: Readonly<Record<string, string | undefined>>;
  /**
   * Set when the static system prompt carries the connector catalog (`buildSystemPrompt({ catalog })`):
   * `would_enable` then keeps only its first entry, because the catalog already lists them all in the
   * cached prefix. Leave it off when the catalog is not in the prompt, or the model loses the rest.
   */
  catalogInSystemPrompt?: boolean;
}

/**
 * A deployment's settings of the status block, passed alike to `runTurn` and `createMcpGateway`
 * (`statusBlock`), so the model, MCP hosts and the gate say the same thing: the app's own setup
 * pages, and whether admin-disabled connectors are shown (with which reason).
 */
export type StatusBlockSettings = Pick<
  ConnectorStatusWireOptions,
  'includeDisabled' | 'disabledReasons' | 'setupUrls'
>;

/** Options of {@link renderTurnContext}. */
export interface RenderTurnContextOptions extends ConnectorStatusWireOptions {
  /** `compact` (default) for models, `pretty` for people. */
  format?: 'compact' | 'pretty';
  /** The `<current_time>`; defaults to the snapshot's capture time so a render depends on its inputs only. */
  now?: Clock;
  /**
   * The block's JSON when the caller already rendered it for equal status and equal options
   * (`stableStringify(connectorStatusWire(snapshot, options), format)`): used as it is, so a turn
   * whose status did not change between steps does not build and serialise it again.
   */
  statusJson?: string;
}

/**
 * The connector status object keyed by connector id, as put in `<connector_status>` and returned by
 * `refresh_connector_status`. Scopes and tools are sorted, so equal status gives equal objects.
 */
export function connectorStatusWire(
  snapshot: StatusSnapshot,
  options: ConnectorStatusWireOptions,
): Record<string, ConnectorStatusWire> {
  const byId = new Map(options.connectors.map((connector) => [connector.id, connector]));
  const wire: Record<string, ConnectorStatusWire> = {};
  for (const id of Object.keys(snapshot.connectors).sort()) {
    const entry = snapshot.connectors[id]!;
    const connector = byId.get(id);
    switch (entry.status) {
      case 'disabled_by_admin':
        if (options.includeDisabled) {
          wire[id] = {
            status: 'disabled_by_admin',
            reason: options.disabledReasons?.[id] ?? defaultDisabledReason,
          };
        }
        break;
      case 'connected': {
        const tools = (connector?.tools ?? [])
          .filter((tool) => toolAvailability(tool, snapshot).available)
          .map((tool) => tool.name)
          .sort();
        // What the connection can really do: a granted parent scope shows the scopes it includes
        // (`repo` → `public_repo`), as the gate and the tool list read them.
        const scopes = expandScopes(entry.scopes, connector?.tools[0]?.impliedScopes);
        wire[id] = { status: 'connected', scopes, tools };
        break;
      }
      case 'unavailable':
        // Status sources never store it; a snapshot that carries it gets the server shape.
        wire[id] =
          entry.retryAfter === undefined
            ? { status: 'unavailable' }
            : { status: 'unavailable', retry_after: toIsoSeconds(entry.retryAfter, 'ceil') };
        break;
      default: {
        const item: Extract<ConnectorStatusWire, { status: typeof entry.status }> = { status: entry.status };
        if (connector) {
          item.setup_url = options.setupUrls?.[id] ?? connector.setupUrl;
          item.would_enable = options.catalogInSystemPrompt
            ? connector.wouldEnable.slice(0, 1)
            : [...connector.wouldEnable];
        }
        if (entry.status === 'invalid_credentials' && entry.error !== undefined) item.error = entry.error;
        if (entry.status === 'rate_limited' && entry.retryAfter !== undefined) {
          item.retry_after = toIsoSeconds(entry.retryAfter, 'ceil');
        }
        wire[id] = item;
      }
    }
  }
  return withServers(wire, options.servers ?? [], byId);
}

function serverWire(server: ServerStatus): ConnectorStatusWire {
  switch (server.status) {
    case 'connected':
      return { status: 'connected', tools: [...new Set(server.tools)].sort() };
    case 'unavailable':
      return server.retryAfter === undefined
        ? { status: 'unavailable' }
        : { status: 'unavailable', retry_after: toIsoSeconds(server.retryAfter, 'ceil') };
    default:
      return {
        status: server.status,
        ...(server.setupCommand === undefined ? {} : { setup_command: server.setupCommand }),
        ...(server.status === 'invalid_credentials' && server.error !== undefined
          ? { error: server.error }
          : {}),
      };
  }
}

/** Adds the servers and re-sorts the keys, so connectors and servers share one stable order. */
function withServers(
  wire: Record<string, ConnectorStatusWire>,
  servers: readonly ServerStatus[],
  connectorIds: ReadonlyMap<string, unknown>,
): Record<string, ConnectorStatusWire> {
  if (servers.length === 0) return wire;
  const all: Record<string, ConnectorStatusWire> = { ...wire };
  for (const server of servers) {
    if (connectorIds.has(server.id)) continue;
    all[server.id] = serverWire(server);
  }
  const sorted: Record<string, ConnectorStatusWire> = {};
  for (const id of Object.keys(all).sort()) sorted[id] = all[id]!;
  return sorted;
}

/**
 * Renders the per-turn context: `<current_time>` and `<connector_status captured_at="…">` with the
 * status JSON (keys sorted at every depth, connectors by id). Equal status renders byte-identically.
 */
export function renderTurnContext(snapshot: StatusSnapshot, options: RenderTurnContextOptions): string {
  const currentTime = toIsoSeconds(options.now === undefined ? snapshot.capturedAt : readClock(options.now));
  const json =
    options.statusJson ??
    stableStringify(connectorStatusWire(snapshot, options) as JsonValue, options.format ?? 'compact');
  return (
    `<current_time>${currentTime}</current_time>\n` +
    `<connector_status captured_at="${toIsoSeconds(snapshot.capturedAt)}">${json}</connector_status>`
  );
}
