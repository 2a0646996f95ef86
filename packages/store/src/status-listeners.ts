import type { StatusChange } from '@patchbay/connector/ports';

/** The kinds a store announces, for checking what comes off the wire. */
const kinds = new Set<StatusChange['kind']>([
  'connection',
  'policy',
  'rate_limit',
  'invalid_credentials',
  'proposal',
]);

/** A change as stored or notified (snake_case columns), checked and turned into a {@link StatusChange}. */
export function toStatusChange(raw: {
  kind?: unknown;
  subject?: unknown;
  connector_id?: unknown;
}): StatusChange | undefined {
  if (!kinds.has(raw.kind as StatusChange['kind'])) return undefined;
  const change: StatusChange = { kind: raw.kind as StatusChange['kind'] };
  if (typeof raw.subject === 'string') change.subject = raw.subject;
  if (typeof raw.connector_id === 'string') change.connectorId = raw.connector_id;
  return change;
}

/**
 * The listeners of one store. The first subscriber starts the watcher and the last one to leave
 * stops it, so a store nobody watches costs nothing; a listener that throws does not keep the
 * change from the others.
 */
export class StatusListeners {
  private readonly listeners = new Set<(change: StatusChange) => void>();

  constructor(
    private readonly start: () => void,
    private readonly stop: () => void,
  ) {}

  /** Adds a listener; returns its unsubscribe function (calling it twice is harmless). */
  add(listener: (change: StatusChange) => void): () => void {
    // A wrapper per subscription, so the same function subscribed twice is called twice.
    const entry = (change: StatusChange) => listener(change);
    this.listeners.add(entry);
    if (this.listeners.size === 1) this.start();
    return () => {
      if (!this.listeners.delete(entry)) return;
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Whether anyone listens. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** Calls every listener with the change. */
  emit(change: StatusChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }
}
