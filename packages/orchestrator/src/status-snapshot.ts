import type { ConnectorStatusEntry, StatusSnapshot } from '@patchbay/connector';
import type { SubjectState } from '@patchbay/connector/ports';
import { statusEntriesFromState } from '@patchbay/helpers';

/**
 * Builds the status of the given connectors from a subject's stored state with the shared rule of
 * `@patchbay/connector`. The gate reads state once per call and needs the credentials from the same
 * read, which is why it does not go through `@patchbay/protocol`'s `captureStatus` (that one also
 * verifies live, which a tool call must not wait on).
 */
export function buildStatusSnapshot(
  subject: string,
  state: SubjectState,
  connectorIds: Iterable<string>,
  now: Date,
): StatusSnapshot {
  const connectors: Record<string, ConnectorStatusEntry> = {};
  for (const [id, { entry }] of statusEntriesFromState(state, connectorIds, now)) connectors[id] = entry;
  return { subject, capturedAt: now.toISOString(), connectors, unknownConnectorIds: [] };
}
