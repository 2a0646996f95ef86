import type { StatusChange } from '@patchbay/connector/ports';
import type { PgClient } from './pg-types.js';
import { statusChannel } from './postgres-schema.js';
import { StatusListeners, toStatusChange } from './status-listeners.js';

/** What a store learns from its watcher besides the listeners' changes. */
export interface WatcherHooks {
  /**
   * A change of status was announced: of `subject`, or of everyone when undefined (a global rule,
   * an oversized payload). Called before the listeners; not for proposals, which change no status.
   */
  announced?(subject: string | undefined): void;
  /** The LISTEN is in place (true), or the connection is gone or closed (false). */
  listening?(live: boolean): void;
}

/** Longest wait between two attempts to re-open the listening connection. */
const maxRetryMs = 5000;

/**
 * LISTENs for the store's announcements on one dedicated connection (a pooled one would be handed
 * to other queries), opened by the first subscriber and closed with the last. The server delivers
 * a NOTIFY only at commit of the write that made it. When the connection drops it is re-opened
 * with backoff; what was announced meanwhile is lost, which the readers' polling fallback covers.
 */
export class PostgresWatcher {
  private readonly listeners: StatusListeners;
  private client: PgClient | undefined;
  private generation = 0;
  private listening: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connect: () => Promise<PgClient>,
    private readonly schema: string,
    private readonly hooks: WatcherHooks = {},
  ) {
    this.listeners = new StatusListeners(
      () => this.open(0),
      () => this.shut(),
    );
  }

  /** Adds a listener; the first one opens the listening connection. */
  subscribe(listener: (change: StatusChange) => void): () => void {
    return this.listeners.add(listener);
  }

  /** Resolves once the current LISTEN is in place (at once when nobody subscribes). */
  ready(): Promise<void> {
    return this.listening;
  }

  private open(attempt: number): void {
    const generation = ++this.generation;
    this.listening = (async () => {
      let client: PgClient | undefined;
      try {
        client = await this.connect();
        if (generation !== this.generation) {
          await client.end().catch(() => undefined);
          return;
        }
        this.client = client;
        client.on('notification', (message) => {
          if (message.channel !== statusChannel || !message.payload) return;
          const raw = JSON.parse(message.payload) as { schema?: string; kind?: unknown; subject?: unknown };
          if (raw.schema !== this.schema) return;
          // Before the listeners, so one that re-reads at once reads past what was kept.
          if (raw.kind !== 'proposal') {
            this.hooks.announced?.(typeof raw.subject === 'string' ? raw.subject : undefined);
          }
          const change = toStatusChange(raw);
          if (change) this.listeners.emit(change);
        });
        client.on('error', () => this.reopen(generation, 0));
        client.on('end', () => this.reopen(generation, 0));
        await client.query(`LISTEN ${statusChannel}`);
        if (generation === this.generation) this.hooks.listening?.(true);
      } catch {
        await client?.end().catch(() => undefined);
        this.reopen(generation, attempt + 1);
      }
    })();
  }

  private reopen(generation: number, attempt: number): void {
    if (generation !== this.generation) return;
    this.hooks.listening?.(false);
    if (!this.listeners.active) return;
    this.client = undefined;
    const delay = Math.min(50 * 2 ** attempt, maxRetryMs);
    this.retryTimer = setTimeout(() => {
      if (generation === this.generation && this.listeners.active) this.open(attempt);
    }, delay);
    this.retryTimer.unref();
  }

  private shut(): void {
    this.generation += 1;
    this.hooks.listening?.(false);
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.listening = client ? client.end().catch(() => undefined) : Promise.resolve();
  }

  /** Closes the listening connection; listeners hear nothing more. */
  async close(): Promise<void> {
    const pending = this.listening;
    this.shut();
    await pending.catch(() => undefined);
    await this.listening;
  }
}
