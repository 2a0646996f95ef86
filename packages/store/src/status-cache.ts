import type { StoredConnection, SubjectState } from '@patchbay/connector/ports';

/** How many subjects' states a store keeps by default. */
export const statusCacheSize = 4096;

/** How long a cached state is used at most, even when no change was announced (default). */
export const statusCacheMaxAgeMs = 2000;

interface Entry {
  state: SubjectState;
  /** `Date.now()` when the read that produced it was sent. */
  readAt: number;
}

/**
 * Subject states (`load`) a store read, kept while the store is sure to hear of every change: only
 * while its LISTEN connection is in place, and dropped when a change of the subject (or one without
 * a subject, such as a global disable rule) is announced, when the store itself writes, and when
 * the connection drops. A read that overlaps any of these is not kept (a version counter, taken
 * before the read and compared after it), so what is kept never predates an announcement the store
 * has heard. Each entry is also used for at most `maxAgeMs`, which bounds staleness if the listening
 * connection dies without the driver noticing. Rate limits are kept with their end times and
 * filtered against the clock on every hit, as the database does on every read. Hands out copies;
 * bounded, dropping the least recently used subject.
 */
export class StatusCache {
  private readonly entries = new Map<string, Entry>();
  private version = 0;
  private live = false;

  constructor(
    private readonly limit: number = statusCacheSize,
    private readonly maxAgeMs: number = statusCacheMaxAgeMs,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether reads may be kept: the listening connection is in place. */
  get listening(): boolean {
    return this.live;
  }

  /** Marks the listening connection in place or gone; either way everything kept is dropped. */
  setListening(live: boolean): void {
    this.live = live;
    this.invalidate(undefined);
  }

  /** Drops one subject's state, or every state when `subject` is undefined. */
  invalidate(subject: string | undefined): void {
    this.version += 1;
    if (subject === undefined) this.entries.clear();
    else this.entries.delete(subject);
  }

  /** Taken before a read; {@link put} keeps its result only if nothing was invalidated meanwhile. */
  begin(): { version: number; at: number } {
    return { version: this.version, at: this.clock() };
  }

  /** Keeps `state` for `subject`, read after `token` was taken, unless anything changed since. */
  put(subject: string, token: { version: number; at: number }, state: SubjectState): void {
    if (!this.live || token.version !== this.version || this.limit <= 0) return;
    this.entries.delete(subject);
    this.entries.set(subject, { state: copyState(state), readAt: token.at });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  /**
   * A copy of the kept state of `subject` (narrowed to `connectorIds` when given), with rate limits
   * that ended by `now` left out; undefined when none is kept or it is older than the maximum age.
   */
  get(subject: string, now: string, connectorIds?: readonly string[]): SubjectState | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(subject);
    if (!entry) return undefined;
    if (this.clock() - entry.readAt > this.maxAgeMs) {
      this.entries.delete(subject);
      return undefined;
    }
    this.entries.delete(subject);
    this.entries.set(subject, entry);
    const only = connectorIds === undefined ? undefined : new Set(connectorIds);
    const wanted = (id: string) => only === undefined || only.has(id);
    const rateLimitedUntil: Record<string, string> = {};
    for (const [id, until] of Object.entries(entry.state.rateLimitedUntil)) {
      // ISO times in UTC (normalised on write) compare as text, as the database compares them.
      if (wanted(id) && until > now) rateLimitedUntil[id] = until;
    }
    return {
      connections: entry.state.connections
        .filter((connection) => wanted(connection.connectorId))
        .map(copyConnection),
      disabledConnectorIds: entry.state.disabledConnectorIds.filter(wanted),
      rateLimitedUntil,
    };
  }

  /** Forgets everything (on close). */
  clear(): void {
    this.live = false;
    this.invalidate(undefined);
  }
}

function copyConnection(connection: StoredConnection): StoredConnection {
  return { ...connection, credentials: { ...connection.credentials }, scopes: [...connection.scopes] };
}

function copyState(state: SubjectState): SubjectState {
  return {
    connections: state.connections.map(copyConnection),
    disabledConnectorIds: [...state.disabledConnectorIds],
    rateLimitedUntil: { ...state.rateLimitedUntil },
  };
}
