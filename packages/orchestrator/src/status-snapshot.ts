import type { ConnectorStatusEntry, StatusSnapshot, SubjectState } from '@patchbay/connector';

/**
 * Builds the status of the given connectors from a subject's stored state. Private stand-in for the
 * snapshot builder of `@patchbay/protocol` (not published yet); the rules are the same: admin policy
 * first, then an unexpired rate limit, then rejected credentials, then a stored connection.
 */
export function buildStatusSnapshot(
  subject: string,
  state: SubjectState,
  connectorIds: Iterable<string>,
  now: Date,
): StatusSnapshot {
  const wanted = new Set(connectorIds);
  // One pass over the subject's connections, keeping only the wanted ones: a subject may have many.
  const connections = new Map<string, SubjectState['connections'][number]>();
  for (const connection of state.connections) {
    if (wanted.has(connection.connectorId)) connections.set(connection.connectorId, connection);
  }
  const connectors: Record<string, ConnectorStatusEntry> = {};
  for (const id of wanted) {
    const connection = connections.get(id);
    const verifiedAt = connection?.verifiedAt !== undefined ? { verifiedAt: connection.verifiedAt } : {};
    const limitedUntil = state.rateLimitedUntil[id];
    if (state.disabledConnectorIds.includes(id)) {
      connectors[id] = { id, status: 'disabled_by_admin', scopes: [] };
    } else if (limitedUntil !== undefined && Date.parse(limitedUntil) > now.getTime()) {
      connectors[id] = { id, status: 'rate_limited', scopes: [], retryAfter: limitedUntil, ...verifiedAt };
    } else if (connection?.credentialError !== undefined) {
      connectors[id] = {
        id,
        status: 'invalid_credentials',
        scopes: [],
        error: connection.credentialError,
        ...verifiedAt,
      };
    } else if (connection) {
      connectors[id] = { id, status: 'connected', scopes: [...connection.scopes], ...verifiedAt };
    } else {
      connectors[id] = { id, status: 'not_configured', scopes: [] };
    }
  }
  return { subject, capturedAt: now.toISOString(), connectors, unknownConnectorIds: [] };
}
