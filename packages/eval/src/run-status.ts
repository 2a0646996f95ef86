// How a scenario run sets connector status and hands out credentials: through the in-memory status
// source's own setters, or a store's, as `patchbay connect` / `disable` would.
import type { Connector, Credentials } from '@patchbay/connector';
import type { InMemoryStatusSource } from '@patchbay/protocol';
import type { EvalStoreHandle } from './config.js';
import { credentialsFor } from './credentials.js';
import type { ScenarioConnectorState } from './run-types.js';

/** A connection as the harness makes it. */
export interface EvalConnection {
  credentials: Credentials;
  scopes: string[];
  verifiedOrigin?: string;
}

/** How the harness sets a subject's status, whatever keeps it. */
export interface StatusControl {
  connect(subject: string, id: string, connection: EvalConnection): Promise<unknown>;
  disconnect(subject: string, id: string): Promise<unknown>;
  disable(id: string, subject: string): Promise<unknown>;
  enable(id: string, subject: string): Promise<unknown>;
  setRateLimit(subject: string, id: string, until: Date | undefined): Promise<unknown>;
  markInvalidCredentials(subject: string, id: string, error: string): Promise<unknown>;
}

/** Hands a connector its credentials (see {@link credentialIssuer}). */
export type CredentialIssuer = (connector: Connector) => Record<string, string>;

/**
 * Hands out credentials with the config's `credentials` function, keeping every secret value handed
 * out in `secrets` (what the checks search for); a value too short to search for stops the run.
 */
export function credentialIssuer(
  credentialsOf: (connector: Connector) => Record<string, string>,
  secrets: Set<string>,
): CredentialIssuer {
  return (connector) => {
    const { credentials, secrets: handed, problems } = credentialsFor(connector, credentialsOf);
    if (problems.length > 0) throw new Error(`the config's credentials function: ${problems.join('; ')}`);
    for (const secret of handed) secrets.add(secret);
    return credentials;
  };
}

/** The control of the in-memory status source: its own setters. */
function inMemoryControl(source: InMemoryStatusSource): StatusControl {
  return {
    connect: async (subject, id, connection) => source.connect(subject, id, connection),
    disconnect: async (subject, id) => source.disconnect(subject, id),
    disable: async (id, subject) => source.disable(id, subject),
    enable: async (id, subject) => source.enable(id, subject),
    setRateLimit: async (subject, id, until) => source.setRateLimit(subject, id, until),
    markInvalidCredentials: (subject, id, error) => source.markInvalidCredentials(subject, id, error),
  };
}

/**
 * How the harness sets a subject's status, whatever keeps it: the in-memory source's own setters, or
 * a store's (`saveConnection`, `disableConnector`, `markRateLimited`, … of @patchbay/store), so a
 * scenario on a store is set up as `patchbay connect` / `disable` would set it up.
 */
export function statusControl(
  source: InMemoryStatusSource | EvalStoreHandle,
  store: EvalStoreHandle | undefined,
  now: () => Date,
): StatusControl {
  if (!store) return inMemoryControl(source as InMemoryStatusSource);
  return {
    connect: (subject, id, { credentials, scopes, verifiedOrigin }) =>
      store.saveConnection(subject, {
        connectorId: id,
        credentials,
        scopes,
        verifiedAt: now().toISOString(),
        ...(verifiedOrigin === undefined ? {} : { verifiedOrigin }),
      }),
    disconnect: (subject, id) => store.deleteConnection(subject, id),
    disable: (id, subject) => store.disableConnector(id, subject),
    enable: (id, subject) => store.enableConnector(id, subject),
    setRateLimit: (subject, id, until) =>
      until === undefined
        ? store.clearRateLimit(subject, id)
        : store.markRateLimited(subject, id, new Date(until).toISOString()),
    markInvalidCredentials: (subject, id, error) => store.markInvalidCredentials(subject, id, error),
  };
}

/** Sets one connector for one subject as `raw` says: reset, then connected and marked as the status needs. */
async function applyOne(
  control: StatusControl,
  subject: string,
  id: string,
  connector: Connector,
  raw: ScenarioConnectorState,
  at: string,
  credentials: CredentialIssuer,
) {
  const entry = typeof raw === 'string' ? { status: raw } : raw;
  await control.enable(id, subject);
  await control.setRateLimit(subject, id, undefined);
  await control.disconnect(subject, id);
  const scopes = entry.scopes ?? connector.auth.scopes.map((scope) => scope.name);
  // As `patchbay connect` does, the connection records the origin it was verified against, so a
  // connector without a default origin (Jira: every site is its own) is bound like a real one; a
  // scenario's `verified_origin` is a connection made while the connector pointed elsewhere.
  const origin = entry.verified_origin ?? connector.origin;
  const verified = origin === undefined ? {} : { verifiedOrigin: origin };
  const connect = () =>
    control.connect(subject, id, { credentials: credentials(connector), scopes, ...verified });
  if (entry.status === 'connected') await connect();
  else if (entry.status === 'invalid_credentials') {
    await connect();
    await control.markInvalidCredentials(subject, id, entry.error ?? 'The token was revoked');
  } else if (entry.status === 'rate_limited') {
    await connect();
    await control.setRateLimit(
      subject,
      id,
      new Date(new Date(at).getTime() + (entry.retry_after_s ?? 600) * 1000),
    );
  } else if (entry.status === 'disabled_by_admin') {
    await connect();
    await control.disable(id, subject);
  }
}

/** Sets each connector of `spec` for every subject of the scenario, through `control`. */
export async function applyStatus(
  control: StatusControl,
  subjects: readonly string[],
  connectors: readonly Connector[],
  spec: Record<string, ScenarioConnectorState> = {},
  at: string,
  credentials: CredentialIssuer,
): Promise<void> {
  for (const subject of subjects)
    for (const [id, raw] of Object.entries(spec)) {
      // Validation made sure every id is one of the scenario's connectors.
      const connector = connectors.find((candidate) => candidate.id === id)!;
      await applyOne(control, subject, id, connector, raw, at, credentials);
    }
}
