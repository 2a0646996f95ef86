import type { Connector, ConnectorStatusEntry, StatusSnapshot, VerifyResult } from '@patchbay/connector';
import type { StatusSource, StoredConnection } from '@patchbay/connector/ports';
import { bindConnectionsToOrigins, statusEntriesFromState, unknownConnectorIds } from '@patchbay/helpers';
import { type Clock, readClock, toIsoSeconds } from './iso-time.js';
import { defaultVerificationCache, type VerificationCache } from './verification-cache.js';

/** Live credential verification settings for {@link captureStatus}. */
export interface LiveVerificationOptions {
  /** How long a verification result stays valid, in milliseconds. */
  ttlMs: number;
  /** Where results are kept; defaults to one process-wide cache. */
  cache?: VerificationCache;
  /** Gives up on a `verify` call after this many milliseconds and keeps the stored status. */
  timeoutMs?: number;
}

/** Arguments of {@link captureStatus}. */
export interface CaptureStatusOptions {
  /** Every installed connector; the snapshot has one entry per connector. */
  connectors: readonly Connector[];
  source: StatusSource;
  /** Whose status to capture (a user or workspace id). */
  subject: string;
  /** Capture time; a function is read once per capture. Defaults to the system clock. */
  now?: Clock;
  /** When set, connected credentials are checked with each connector's `verify`, cached for `ttlMs`. */
  verify?: LiveVerificationOptions;
}

const unreachable = (message: string): VerifyResult => ({ valid: false, reason: 'unreachable', message });

async function runVerify(connector: Connector, connection: StoredConnection, timeoutMs: number | undefined) {
  try {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const pending = connector.verify(connection.credentials, signal ? { signal } : undefined);
    if (!signal) return await pending;
    // A verify that ignores its signal must still not hold the turn.
    const aborted = new Promise<VerifyResult>((resolve) =>
      signal.addEventListener('abort', () => resolve(unreachable('verification timed out')), { once: true }),
    );
    return await Promise.race([pending, aborted]);
  } catch {
    // The contract says verify never throws; one that does tells us nothing about the credentials.
    return unreachable('verification failed');
  }
}

const byId = (a: Connector, b: Connector) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The connectors in id order: the given list itself when it is in order already (the usual case). */
function sortedById(connectors: readonly Connector[]): readonly Connector[] {
  for (let index = 1; index < connectors.length; index += 1) {
    if (byId(connectors[index - 1]!, connectors[index]!) > 0) return [...connectors].sort(byId);
  }
  return connectors;
}

/** A connected entry checked live (cached for `ttlMs`); what it learns is written back to the source. */
async function verifyEntry(
  options: CaptureStatusOptions,
  verify: LiveVerificationOptions,
  connector: Connector,
  connection: StoredConnection,
  connected: ConnectorStatusEntry,
  nowMs: number,
): Promise<ConnectorStatusEntry> {
  const { source, subject } = options;
  const cache = verify.cache ?? defaultVerificationCache();
  const { result, startedAt } = await cache.get(
    { subject, connectorId: connector.id, credentials: connection.credentials },
    { now: nowMs, ttlMs: verify.ttlMs },
    () => runVerify(connector, connection, verify.timeoutMs),
  );
  const id = connector.id;
  // A cached result keeps the time it was really checked, not the time of this turn.
  const verifiedAt = toIsoSeconds(startedAt);
  if (result.valid) return { id, status: 'connected', scopes: [...result.scopes], verifiedAt };
  if (result.reason === 'invalid_credentials') {
    // Written back so the next turn, another instance and the CLI see it without verifying again.
    await source.markInvalidCredentials(subject, id, result.message);
    return {
      id,
      status: 'invalid_credentials',
      scopes: [],
      error: result.message,
      verifiedAt,
    };
  }
  if (result.reason === 'rate_limited' && result.retryAfterS !== undefined) {
    const until = new Date(nowMs + result.retryAfterS * 1000).toISOString();
    await source.markRateLimited(subject, id, until);
    return { id, status: 'rate_limited', scopes: [], retryAfter: until };
  }
  // Could not tell: the stored status stands rather than hiding a working connector.
  return connected;
}

/**
 * Captures one subject's connector status: stored connections, admin policy and rate limits from
 * the source, optionally checked live. A connection verified against another origin than its
 * connector is now configured for is `invalid_credentials` (and not verified). Precedence: disabled by admin, then rate limited (until a
 * future time), then a recorded credential error, then connected, else not configured.
 */
export async function captureStatus(options: CaptureStatusOptions): Promise<StatusSnapshot> {
  const { source, subject, verify } = options;
  const now = readClock(options.now);
  const nowMs = now.getTime();
  const connectors = sortedById(options.connectors);
  // Before anything reads credentials: a connection verified against another origin than the
  // connector's configured one is invalid here, and is never verified live against the new origin.
  const state = bindConnectionsToOrigins(await source.load(subject), connectors);
  const stored = statusEntriesFromState(
    state,
    connectors.map((connector) => connector.id),
    now,
  );

  // Without live checks every entry is known now: no promise per connector on the hot path.
  const entries = verify
    ? await Promise.all(
        connectors.map(async (connector): Promise<ConnectorStatusEntry> => {
          const { entry, connection } = stored.get(connector.id)!;
          if (entry.status !== 'connected' || !connection) return entry;
          return verifyEntry(options, verify, connector, connection, entry, nowMs);
        }),
      )
    : connectors.map((connector) => stored.get(connector.id)!.entry);

  return {
    subject,
    capturedAt: toIsoSeconds(now),
    connectors: Object.fromEntries(entries.map((entry) => [entry.id, entry])),
    unknownConnectorIds: unknownConnectorIds(state, new Set(connectors.map((connector) => connector.id))),
    disabledIds: [...state.disabledConnectorIds].sort(),
  };
}
