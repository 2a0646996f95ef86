import type { Connector, ConnectorStatus, ConnectorStatusEntry, StatusSnapshot } from '@patchbay/connector';

/** Options of {@link snapshotFor}. */
export interface SnapshotForOptions {
  /** Granted scopes when connected; all declared scopes by default. */
  scopes?: readonly string[];
  /** Subject the snapshot is for; `test-subject` by default. */
  subject?: string;
  /** Capture time; `2026-01-01T00:00:00.000Z` by default so envelopes are deterministic. */
  capturedAt?: Date;
  /** Seconds until a `rate_limited` connector may be used again; 60 by default. */
  retryAfterS?: number;
}

/** Fixed capture time of {@link snapshotFor}, to pass as `now` when a test wants stable `retry_after_s`. */
export const defaultCapturedAt = new Date('2026-01-01T00:00:00.000Z');

/**
 * A status snapshot with the connector in the given status. Connectors its tools `require` are
 * added as connected, so only this connector's status decides availability.
 */
export function snapshotFor(
  connector: Pick<Connector, 'id' | 'auth' | 'tools'>,
  status: ConnectorStatus,
  options: SnapshotForOptions = {},
): StatusSnapshot {
  const capturedAt = options.capturedAt ?? defaultCapturedAt;
  const entry: ConnectorStatusEntry = {
    id: connector.id,
    status,
    scopes:
      status === 'connected' ? [...(options.scopes ?? connector.auth.scopes.map((scope) => scope.name))] : [],
  };
  if (status === 'invalid_credentials') entry.error = 'The service rejected the stored credentials.';
  if (status === 'rate_limited') {
    entry.retryAfter = new Date(capturedAt.getTime() + (options.retryAfterS ?? 60) * 1000).toISOString();
  }
  const connectors: StatusSnapshot['connectors'] = {};
  for (const tool of connector.tools) {
    for (const required of tool.requires)
      connectors[required] = { id: required, status: 'connected', scopes: [] };
  }
  connectors[connector.id] = entry;
  return {
    subject: options.subject ?? 'test-subject',
    capturedAt: capturedAt.toISOString(),
    connectors,
    unknownConnectorIds: [],
  };
}
