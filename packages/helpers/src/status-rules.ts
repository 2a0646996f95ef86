import type { ConnectorStatusEntry } from '@patchbay/connector';
import type { StoredConnection, SubjectState } from '@patchbay/connector/ports';

/**
 * The status of each given connector from a subject's stored state, without live checks. The one
 * precedence rule every reader shares: disabled by admin, then rate limited (until a future time),
 * then a recorded credential error, then connected, else not configured.
 */
export function statusEntriesFromState(
  state: SubjectState,
  connectorIds: Iterable<string>,
  now: Date,
): Map<string, { entry: ConnectorStatusEntry; connection: StoredConnection | undefined }> {
  const nowMs = now.getTime();
  const disabled = new Set(state.disabledConnectorIds);
  const connections = new Map(state.connections.map((connection) => [connection.connectorId, connection]));
  const result = new Map<string, { entry: ConnectorStatusEntry; connection: StoredConnection | undefined }>();
  for (const id of connectorIds) {
    const connection = connections.get(id);
    const until = state.rateLimitedUntil[id];
    const verifiedAt = connection?.verifiedAt === undefined ? {} : { verifiedAt: connection.verifiedAt };
    let entry: ConnectorStatusEntry;
    if (disabled.has(id)) entry = { id, status: 'disabled_by_admin', scopes: [] };
    else if (until !== undefined && Date.parse(until) > nowMs)
      entry = { id, status: 'rate_limited', scopes: [], retryAfter: until };
    else if (!connection) entry = { id, status: 'not_configured', scopes: [] };
    else if (connection.credentialError !== undefined) {
      entry = {
        id,
        status: 'invalid_credentials',
        scopes: [],
        error: connection.credentialError,
        ...verifiedAt,
      };
    } else entry = { id, status: 'connected', scopes: [...connection.scopes], ...verifiedAt };
    result.set(id, { entry, connection });
  }
  return result;
}

/** Connector ids the state mentions (connections, rate limits) that are not installed, sorted. */
export function unknownConnectorIds(state: SubjectState, installed: ReadonlySet<string>): string[] {
  const unknown = new Set<string>();
  for (const connection of state.connections)
    if (!installed.has(connection.connectorId)) unknown.add(connection.connectorId);
  for (const id of Object.keys(state.rateLimitedUntil)) if (!installed.has(id)) unknown.add(id);
  return [...unknown].sort();
}
