import type { StoredConnection, SubjectState } from '@patchbay/connector/ports';

/** What origin binding reads of a connector (a `Connector` has these fields). */
export interface ConnectorOrigins {
  id: string;
  /** Origin the connector is configured to send credentials to; undefined: it declares none. */
  origin?: string | undefined;
  /** Origin it uses without settings: what an unrecorded verification is taken to have used. */
  defaultOrigin?: string | undefined;
}

/**
 * Why a stored connection must not be used by a connector as now configured, or undefined when it
 * may. A connection records the origin it was verified against; a connector configured for another
 * origin (a changed `baseUrl`) would hand the credentials to a host that never proved it should get
 * them. A connection stored before origins were recorded counts as verified against the connector's
 * default origin: that is what every connector used before a `baseUrl` was set, so the common case
 * keeps working, and anyone who had set a `baseUrl` connects once more.
 */
export function originMismatch(
  connector: ConnectorOrigins,
  connection: Pick<StoredConnection, 'verifiedOrigin'>,
): string | undefined {
  if (connector.origin === undefined) return undefined;
  const verified = connection.verifiedOrigin ?? connector.defaultOrigin;
  if (verified === connector.origin) return undefined;
  if (verified === undefined) {
    return `These credentials were stored without the address they were verified against, and ${connector.id} is now configured for ${connector.origin}; connect again.`;
  }
  return `These credentials were verified against ${verified}, and ${connector.id} is now configured for ${connector.origin}; connect again.`;
}

/**
 * A subject's state as the given connectors see it: a connection whose verified origin is not its
 * connector's configured origin keeps no credentials and carries the reason as its credential error,
 * so every reader (status, the gate, the prompt) shows `invalid_credentials` and nothing can send the
 * credentials to the new origin. Nothing is written back: restoring the old setting restores the
 * connection, and connecting again records the new origin.
 */
export function bindConnectionsToOrigins(
  state: SubjectState,
  connectors: Iterable<ConnectorOrigins>,
): SubjectState {
  const byId = new Map<string, ConnectorOrigins>();
  for (const connector of connectors) byId.set(connector.id, connector);
  let changed = false;
  const connections = state.connections.map((connection): StoredConnection => {
    const connector = byId.get(connection.connectorId);
    const mismatch = connector === undefined ? undefined : originMismatch(connector, connection);
    if (mismatch === undefined) return connection;
    changed = true;
    // A refusal already recorded (a revoked token, whose failed connect stored no origin) is the
    // truer sentence; the credentials are withheld either way.
    return {
      ...connection,
      credentials: {},
      scopes: [],
      credentialError: connection.credentialError ?? mismatch,
    };
  });
  return changed ? { ...state, connections } : state;
}
