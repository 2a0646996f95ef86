import {
  bindConnectionsToOrigins,
  type Connector,
  type ConnectorStatusEntry,
  type StatusSnapshot,
  type StatusSource,
  type StoredConnection,
  statusEntriesFromState,
  unknownConnectorIds,
  type VerifyResult,
} from '@patchbay/connector';
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
  const connectors = [...options.connectors].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Before anything reads credentials: a connection verified against another origin than the
  // connector's configured one is invalid here, and is never verified live against the new origin.
  const state = bindConnectionsToOrigins(await source.load(subject), connectors);
  const stored = statusEntriesFromState(
    state,
    connectors.map((connector) => connector.id),
    now,
  );

  const entries = await Promise.all(
    connectors.map(async (connector): Promise<ConnectorStatusEntry> => {
      const { entry, connection } = stored.get(connector.id)!;
      if (!verify || entry.status !== 'connected' || !connection) return entry;
      return verifyEntry(connector, connection, entry);
    }),
  );

  async function verifyEntry(
    connector: Connector,
    connection: StoredConnection,
    connected: ConnectorStatusEntry,
  ): Promise<ConnectorStatusEntry> {
    const cache = verify!.cache ?? defaultVerificationCache();
    const { result, startedAt } = await cache.get(
      { subject, connectorId: connector.id, credentials: connection.credentials },
      { now: nowMs, ttlMs: verify!.ttlMs },
      () => runVerify(connector, connection, verify!.timeoutMs),
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

  return {
    subject,
    capturedAt: toIsoSeconds(now),
    connectors: Object.fromEntries(entries.map((entry) => [entry.id, entry])),
    unknownConnectorIds: unknownConnectorIds(state, new Set(connectors.map((connector) => connector.id))),
    disabledIds: [...state.disabledConnectorIds].sort(),
  };
}
