import type { AnyTool, ScopeImplication, StatusSnapshot } from '@patchbay/connector';
import { type ErrorEnvelope, failure } from '@patchbay/envelope';
import { expandScopes } from './scopes.js';

/** Why a tool cannot run for a subject now. */
export type UnavailableReason =
  | {
      kind: 'connector_status';
      connectorId: string;
      status: Exclude<StatusSnapshot['connectors'][string]['status'], 'connected'>;
    }
  | { kind: 'unknown_connector'; connectorId: string }
  | { kind: 'missing_scopes'; connectorId: string; scopes: string[] }
  | { kind: 'requires_connector'; connectorId: string };

/** Result of {@link toolAvailability}. */
export type ToolAvailability =
  | { available: true }
  | { available: false; reason: UnavailableReason; envelope: ErrorEnvelope };

/** The parts of a tool the availability rule reads; connector tools, MCP tools and functions all have them. */
export type AvailabilityTool = Pick<AnyTool, 'name' | 'requiredScopes' | 'requires'> & {
  connectorId?: string | undefined;
  /** The connector's scope implication; a granted parent scope satisfies its children. */
  impliedScopes?: ScopeImplication | undefined;
};

/** Setup URLs by connector id, so envelopes can say where to fix things. */
export type SetupUrls = Readonly<Record<string, string | undefined>>;

function statusEnvelope(
  connectorId: string,
  entry: StatusSnapshot['connectors'][string],
  setupUrl: string | undefined,
  now: Date,
): ErrorEnvelope {
  switch (entry.status) {
    case 'not_configured':
      return failure('connector_not_configured', {
        connector: connectorId,
        setupUrl,
        userMessage: `The ${connectorId} connector is not set up yet.`,
      });
    case 'invalid_credentials':
      return failure('invalid_credentials', {
        connector: connectorId,
        setupUrl,
        userMessage: `The ${connectorId} connection needs to be reconnected${entry.error ? `: ${entry.error}` : '.'}`,
      });
    case 'rate_limited': {
      const until = entry.retryAfter ? Date.parse(entry.retryAfter) : Number.NaN;
      const retryAfterS = Number.isNaN(until)
        ? undefined
        : Math.max(0, Math.ceil((until - now.getTime()) / 1000));
      return failure('rate_limited', {
        connector: connectorId,
        retryAfterS,
        userMessage: entry.retryAfter
          ? `The ${connectorId} connector is rate limited until ${entry.retryAfter}.`
          : `The ${connectorId} connector is rate limited.`,
      });
    }
    case 'unavailable':
      // Only MCP servers carry it: down or starting, back on its own.
      return failure('tool_unavailable', {
        connector: connectorId,
        userMessage: `${connectorId} is not reachable right now.`,
        retryable: true,
      });
    default:
      // disabled_by_admin: say nothing that invites the model to offer it.
      return failure('disabled_by_admin', { userMessage: 'This tool is not available.' });
  }
}

/**
 * Decides whether a tool may run for the snapshot's subject: its connector connected, its required
 * scopes granted, every `requires` connector connected. The one rule shared by tool exposure,
 * the orchestrator's gate and the conformance suite; when it says no, no request may leave.
 */
export function toolAvailability(
  tool: AvailabilityTool,
  snapshot: StatusSnapshot,
  options: { setupUrls?: SetupUrls; now?: Date } = {},
): ToolAvailability {
  const now = options.now ?? new Date();
  const connectorId = tool.connectorId;
  // Tools without a connector (wrapped functions, MCP tools) are gated only by `requires`.
  const entry = connectorId === undefined ? undefined : snapshot.connectors[connectorId];
  if (connectorId !== undefined && !entry) {
    return {
      available: false,
      reason: { kind: 'unknown_connector', connectorId },
      envelope: failure('tool_unavailable', { userMessage: `The tool ${tool.name} is not available.` }),
    };
  }
  if (connectorId !== undefined && entry && entry.status !== 'connected') {
    return {
      available: false,
      reason: { kind: 'connector_status', connectorId, status: entry.status },
      envelope: statusEnvelope(connectorId, entry, options.setupUrls?.[connectorId], now),
    };
  }
  // Implication applies here, not only when verify() stored the expanded list: connections saved
  // through the store API carry just what the service reported (`repo`, not `public_repo`).
  const granted = new Set(expandScopes(entry?.scopes ?? [], tool.impliedScopes));
  const missing = entry ? tool.requiredScopes.filter((scope) => !granted.has(scope)) : [];
  if (connectorId !== undefined && missing.length > 0) {
    return {
      available: false,
      reason: { kind: 'missing_scopes', connectorId, scopes: missing },
      envelope: failure('permission_denied', {
        connector: connectorId,
        setupUrl: options.setupUrls?.[connectorId],
        missingScopes: missing,
        userMessage: `The ${connectorId} connection lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')} needed for ${tool.name}.`,
      }),
    };
  }
  for (const required of tool.requires) {
    const other = snapshot.connectors[required];
    if (other?.status === 'connected') continue;
    const reason: UnavailableReason = { kind: 'requires_connector', connectorId: required };
    if (other?.status === 'disabled_by_admin') {
      // The disabled connector must not be named, not even as the reason.
      return { available: false, reason, envelope: statusEnvelope(required, other, undefined, now) };
    }
    const envelope = other
      ? statusEnvelope(required, other, options.setupUrls?.[required], now)
      : failure('connector_not_configured', {
          connector: required,
          setupUrl: options.setupUrls?.[required],
          userMessage: `The ${required} connector is not set up yet.`,
        });
    return {
      available: false,
      reason,
      envelope: {
        ...envelope,
        user_message: `${tool.name} also needs the ${required} connector. ${envelope.user_message}`,
      },
    };
  }
  return { available: true };
}
