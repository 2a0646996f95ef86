import type { AnyTool, Connector, ConnectorStatus, StatusSnapshot } from '@patchbay/connector';
import { toolAvailability } from '@patchbay/helpers';
import { type MetaToolDefinition, refreshConnectorStatusTool } from './meta-tool.js';

/** A tool as offered to the model: a connector tool or a protocol meta-tool. */
export type ExposedTool = AnyTool | MetaToolDefinition;

/** Why a tool is not offered now, in a form a prompt, a CLI or a UI can use. */
export type UnavailableToolReason =
  | {
      kind: 'not_connected';
      connectorId: string;
      status: Exclude<ConnectorStatus, 'connected' | 'disabled_by_admin'>;
    }
  | { kind: 'missing_scopes'; connectorId: string; scopes: string[] }
  | {
      kind: 'requires_connector';
      connectorId: string;
      /** The other connector that must be connected first. */
      requiredConnectorId: string;
      requiredStatus: Exclude<ConnectorStatus, 'connected' | 'disabled_by_admin'> | 'unknown';
    };

/** A tool the model is not offered now, and why. */
export interface UnavailableTool {
  name: string;
  connectorId: string;
  tool: AnyTool;
  reason: UnavailableToolReason;
  /** One sentence for people (CLI, logs); never a secret. */
  message: string;
}

/** Options of {@link exposedTools}. */
export interface ExposedToolsOptions {
  /** Append `refresh_connector_status`. Default true. */
  includeMetaTool?: boolean;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function connectorIdOf(tool: AnyTool): string {
  return tool.connectorId ?? tool.name.split('_')[0]!;
}

/**
 * The tools the model may see now: those `toolAvailability` allows (connector connected, scopes
 * granted, required connectors connected), sorted by name, then `refresh_connector_status`. The
 * order depends only on status, so the tools array, the first thing a provider caches, only
 * changes when status does.
 */
export function exposedTools(
  snapshot: StatusSnapshot,
  connectors: readonly Connector[],
  options: ExposedToolsOptions = {},
): ExposedTool[] {
  const tools: ExposedTool[] = connectors
    .flatMap((connector) => connector.tools)
    .filter((tool) => toolAvailability(tool, snapshot).available)
    .sort(byName);
  if (options.includeMetaTool ?? true) tools.push(refreshConnectorStatusTool);
  return tools;
}

/**
 * The tools the model is not offered, with the reason. Tools of a connector disabled by an admin,
 * or needing one, are left out entirely: they are not something the user can set up, and naming
 * them would tell the model about a connector it must not mention.
 */
export function unavailableTools(
  snapshot: StatusSnapshot,
  connectors: readonly Connector[],
): UnavailableTool[] {
  const result: UnavailableTool[] = [];
  for (const tool of connectors.flatMap((connector) => connector.tools).sort(byName)) {
    const availability = toolAvailability(tool, snapshot);
    if (availability.available) continue;
    const connectorId = connectorIdOf(tool);
    const reason = availability.reason;
    let mapped: UnavailableToolReason;
    let message: string;
    if (reason.kind === 'connector_status') {
      if (reason.status === 'disabled_by_admin') continue;
      mapped = { kind: 'not_connected', connectorId, status: reason.status };
      message = `${tool.name}: the ${connectorId} connector is ${reason.status.replaceAll('_', ' ')}.`;
    } else if (reason.kind === 'missing_scopes') {
      mapped = { kind: 'missing_scopes', connectorId, scopes: [...reason.scopes] };
      const plural = reason.scopes.length > 1 ? 's' : '';
      message = `${tool.name}: the ${connectorId} connection lacks the scope${plural} ${reason.scopes.join(', ')}.`;
    } else if (reason.kind === 'requires_connector') {
      const requiredStatus = snapshot.connectors[reason.connectorId]?.status;
      if (requiredStatus === 'disabled_by_admin') continue;
      mapped = {
        kind: 'requires_connector',
        connectorId,
        requiredConnectorId: reason.connectorId,
        requiredStatus:
          requiredStatus === undefined || requiredStatus === 'connected' ? 'unknown' : requiredStatus,
      };
      message = `${tool.name}: needs the ${reason.connectorId} connector connected as well.`;
    } else {
      // The snapshot does not know the tool's connector: nothing the user can act on.
      continue;
    }
    result.push({ name: tool.name, connectorId, tool, reason: mapped, message });
  }
  return result;
}
