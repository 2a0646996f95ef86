import type { Connector, ConnectorStatus, StatusSnapshot } from '@patchbay/connector';
import { toIsoSeconds } from './iso-time.js';
import { exposedTools, unavailableTools } from './tool-exposure.js';

/** A connector the agent can use now. */
export interface ReadyCapability {
  connectorId: string;
  /** Display name, e.g. "GitHub". */
  name: string;
  /** What the connector lets the agent do, as its author phrased it. */
  capabilities: string[];
  /** Names of the tools exposed now. */
  tools: string[];
}

/** Something the agent could do once the user acts: connect, reconnect, grant a scope, wait. */
export interface SetupCapability {
  connectorId: string;
  name: string;
  /** The connector's own status; `connected` when only some tools are blocked (missing scope, other connector). */
  status: Exclude<ConnectorStatus, 'disabled_by_admin'>;
  setupUrl: string;
  wouldEnable: string[];
  /** Why it is not available yet, as one plain sentence without secrets. */
  reason: string;
  /** Names of the tools that would become available. */
  tools: string[];
  /** ISO time a rate limit lifts, when known. */
  retryAfter?: string;
  /** Scopes to grant, when that is what is missing. */
  missingScopes?: string[];
  /** Other connectors to connect, when that is what is missing. */
  requiredConnectorIds?: string[];
}

/** The "Ready now" / "Available after setup" view of a snapshot. */
export interface Capabilities {
  readyNow: ReadyCapability[];
  availableAfterSetup: SetupCapability[];
}

/**
 * Groups what the agent can do into ready now and available after setup, in connector id order.
 * Connectors disabled by an admin appear in neither.
 */
export function describeCapabilities(
  snapshot: StatusSnapshot,
  connectors: readonly Connector[],
): Capabilities {
  const exposed = new Set(
    exposedTools(snapshot, connectors, { includeMetaTool: false }).map((tool) => tool.name),
  );
  const blocked = unavailableTools(snapshot, connectors);
  const sorted = [...connectors].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const readyNow: ReadyCapability[] = [];
  const availableAfterSetup: SetupCapability[] = [];

  for (const connector of sorted) {
    const entry = snapshot.connectors[connector.id];
    if (!entry || entry.status === 'disabled_by_admin') continue;
    const base = {
      connectorId: connector.id,
      name: connector.name,
      setupUrl: connector.setupUrl,
      wouldEnable: [...connector.wouldEnable],
    };
    if (entry.status !== 'connected') {
      const tools = blocked.filter((tool) => tool.connectorId === connector.id).map((tool) => tool.name);
      const setup: SetupCapability = { ...base, status: entry.status, reason: '', tools };
      if (entry.status === 'not_configured') setup.reason = `${connector.name} is not connected yet.`;
      else if (entry.status === 'invalid_credentials') {
        setup.reason = `${connector.name} needs to be reconnected${entry.error ? `: ${entry.error}` : '.'}`;
      } else {
        const retryAfter =
          entry.retryAfter === undefined ? undefined : toIsoSeconds(entry.retryAfter, 'ceil');
        if (retryAfter !== undefined) setup.retryAfter = retryAfter;
        setup.reason = retryAfter
          ? `${connector.name} is rate limited until ${retryAfter}.`
          : `${connector.name} is rate limited for now.`;
      }
      availableAfterSetup.push(setup);
      continue;
    }

    const ready = connector.tools
      .map((tool) => tool.name)
      .filter((name) => exposed.has(name))
      .sort();
    if (ready.length > 0) {
      readyNow.push({
        connectorId: connector.id,
        name: connector.name,
        capabilities: [...connector.capabilities],
        tools: ready,
      });
    }
    const partial = blocked.filter((tool) => tool.connectorId === connector.id);
    if (partial.length === 0) continue;
    const missingScopes = new Set<string>();
    const requiredConnectorIds = new Set<string>();
    for (const tool of partial) {
      if (tool.reason.kind === 'missing_scopes')
        for (const scope of tool.reason.scopes) missingScopes.add(scope);
      if (tool.reason.kind === 'requires_connector')
        requiredConnectorIds.add(tool.reason.requiredConnectorId);
    }
    const reasons: string[] = [];
    const setup: SetupCapability = {
      ...base,
      status: 'connected',
      reason: '',
      tools: partial.map((tool) => tool.name),
    };
    if (missingScopes.size > 0) {
      setup.missingScopes = [...missingScopes].sort();
      reasons.push(
        `grant ${connector.name} the scope${missingScopes.size > 1 ? 's' : ''} ${setup.missingScopes.join(', ')}`,
      );
    }
    if (requiredConnectorIds.size > 0) {
      setup.requiredConnectorIds = [...requiredConnectorIds].sort();
      const names = setup.requiredConnectorIds.map(
        (id) => connectors.find((other) => other.id === id)?.name ?? id,
      );
      reasons.push(`connect ${names.join(' and ')} as well`);
    }
    setup.reason = `Some ${connector.name} tools need the user to ${reasons.join(' and ')}.`;
    availableAfterSetup.push(setup);
  }
  return { readyNow, availableAfterSetup };
}
