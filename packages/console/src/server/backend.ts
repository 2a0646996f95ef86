import type { Connector, Credentials } from '@patchbay/connector';
import type { Proposal } from '@patchbay/connector/ports';
import type { Envelope } from '@patchbay/envelope';
import type { PatchbayStore } from '@patchbay/store';

/** One connector as the Connectors page shows it for a user (wire shape: snake_case). */
export interface ConnectorView {
  id: string;
  name: string;
  status: string;
  scopes: string[];
  tools: string[];
  identity?: string | undefined;
  error?: string | undefined;
  /** ISO time a rate limit ends. */
  retry_after?: string | undefined;
  /** ISO time of the last successful verification. */
  verified_at?: string | undefined;
  setup_url?: string | undefined;
}

/**
 * One MCP server as the Connectors page shows it for a user (wire shape: snake_case). `status`:
 * `up` (with its tools), `down` (with why), `not_configured` (a remote server this user has not
 * signed in to, or whose sign-in was made for another address), `invalid_credentials` (the sign-in
 * was refused), `starting`.
 */
export interface McpServerView {
  name: string;
  status: 'up' | 'down' | 'starting' | 'not_configured' | 'invalid_credentials';
  tools: string[];
  /** Machine-readable cause when not up (`command_not_found`, `needs_authorization`, …). */
  reason?: string | undefined;
  /** A sentence on why it is not up; never a secret or a URL query. */
  detail?: string | undefined;
  /** The command that signs this user in, for an OAuth server without a working sign-in. */
  setup_command?: string | undefined;
  /** Disabled by admin policy for this user or everyone. */
  disabled: boolean;
}

/** What a connect attempt came to; never carries a credential value. */
export type ConnectOutcome =
  | { status: 'connected'; scopes: string[]; identity?: string | undefined }
  | {
      status: 'refused' | 'unreachable';
      reason: string;
      /** The connector's explanation, with every credential value redacted. */
      message: string;
    };

/** The per-turn block a user's agent would get now. */
export interface TurnContextView {
  context: string;
  tokens: number;
  encoding: string;
  captured_at: string;
}

/**
 * What the console does, supplied by its host (the `patchbay` CLI builds one from its runtime), so
 * the console runs exactly the code the CLI commands run: approval through the orchestrator's
 * compare-and-set, connect through the connector's `verify`, the same audit entries.
 */
export interface ConsoleBackend {
  /** The store: proposals, audit log, connections, policy and change notifications. */
  readonly store: PatchbayStore;
  /** The user the console opens on (`--user`). */
  readonly defaultSubject: string;
  /** How long a pending proposal can be approved, from its creation, in ms (the orchestrator's `proposalTtlMs`). */
  readonly proposalTtlMs: number;
  /** Installed connectors, sorted by id. */
  connectors(): Promise<Connector[]>;
  /**
   * Approves a pending proposal and runs it once through the orchestrator. Throws a `PatchbayError`
   * `proposal_not_found` / `proposal_not_pending`; every other outcome is the envelope.
   */
  approve(id: string, decidedBy: string): Promise<{ envelope: Envelope; proposal: Proposal | undefined }>;
  /** Rejects a pending (or approved) proposal with a reason. */
  reject(id: string, reason: string, decidedBy: string): Promise<Proposal>;
  /** Verifies credentials with the service, as `patchbay connect` does, and stores them on success. */
  connect(subject: string, connectorId: string, credentials: Credentials): Promise<ConnectOutcome>;
  /** Forgets a stored connection. Returns false when there was none. */
  disconnect(subject: string, connectorId: string): Promise<boolean>;
  /** Admin policy: disable or enable a connector for everyone (`subject` undefined) or one user. */
  setPolicy(action: 'disable' | 'enable', connectorId: string, subject: string | undefined): Promise<boolean>;
  /** Every installed connector's status for a user. */
  connectorStatus(subject: string): Promise<ConnectorView[]>;
  /** The per-turn context block for a user, now, with its token count. */
  turnContext(subject: string, options: { verify: boolean }): Promise<TurnContextView>;
  /**
   * The configured MCP servers and their state for a user, each started and checked now; undefined
   * (the method left out) when the host has no MCP servers configured.
   */
  mcpServers?(subject: string): Promise<McpServerView[]>;
}
