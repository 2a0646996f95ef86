import type { ServerResponse } from 'node:http';
import type { Envelope } from '@patchbay/envelope';
import type { AuditRecord, PatchbayStore } from '@patchbay/store';

/** What a browser hears on `/api/events`: which data changed, so it reads it again. */
export type LiveEvent =
  | { type: 'change'; topic: 'proposals' | 'connectors'; subject?: string | undefined }
  | { type: 'audit'; records: AuditRecord[] };

/** The last decision recorded in the audit log for a proposal: who, and the envelope of its run. */
export interface RecordedDecision {
  event: string;
  decided_by?: string | undefined;
  envelope?: Envelope | undefined;
  at: string;
}

/** How many audit records the console keeps in memory for the Activity page. */
const auditWindow = 5_000;

/**
 * Watches the store and tells every open page. Three sources, because the store announces some
 * changes and not others: `subscribe()` (connections, policy, rate limits, proposal decisions — from
 * any process), the audit log read forward by `afterSeq` (new entries), and a light poll of the
 * pending proposals' ids (a new proposal is not announced by the store).
 */
export class LiveFeed {
  private readonly clients = new Set<ServerResponse>();
  private readonly audit: AuditRecord[] = [];
  private readonly decisions = new Map<string, RecordedDecision>();
  private lastSeq = 0;
  private proposalsFingerprint: string | undefined;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly store: PatchbayStore,
    private readonly pollIntervalMs = 1_000,
  ) {}

  /** Reads the audit log so far and starts watching. */
  async start(): Promise<void> {
    this.unsubscribe = this.store.subscribe((change) => {
      this.broadcast({
        type: 'change',
        topic: change.kind === 'proposal' ? 'proposals' : 'connectors',
        subject: change.subject,
      });
    });
    await this.store.listening?.();
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.pollIntervalMs);
    this.timer.unref();
    // A comment line every 15 s keeps proxies and idle timeouts from closing the stream.
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(': keep-alive\n\n');
    }, 15_000);
    this.heartbeat.unref();
  }

  /** Stops watching and ends every open stream. */
  stop(): void {
    this.unsubscribe?.();
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  /** Reads what is new now (also called right after the console itself changed something). */
  poll(): Promise<void> {
    // One poll at a time: a slow database must not stack them up.
    this.polling ??= this.readNew().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async readNew(): Promise<void> {
    try {
      const fresh: AuditRecord[] = [];
      for (;;) {
        const page = await this.store.audit.list({ afterSeq: this.lastSeq, limit: 500 });
        if (page.length === 0) break;
        for (const record of page) this.remember(record);
        fresh.push(...page);
        this.lastSeq = page[page.length - 1]!.seq;
        if (page.length < 500) break;
      }
      if (fresh.length > 0) this.broadcast({ type: 'audit', records: fresh.slice(-auditWindow) });
      // Only pending ones: a new proposal is always pending, and every later transition (a decision,
      // an expiry, a run) is announced by the store itself.
      const pending = await this.store.proposals.list({ state: 'pending' });
      const fingerprint = pending
        .map((proposal) => proposal.id)
        .sort()
        .join(',');
      if (fingerprint !== this.proposalsFingerprint) {
        const first = this.proposalsFingerprint === undefined;
        this.proposalsFingerprint = fingerprint;
        if (!first) this.broadcast({ type: 'change', topic: 'proposals' });
      }
    } catch {
      // A database that is briefly busy or away: the next poll tries again.
    }
  }

  private remember(record: AuditRecord): void {
    this.audit.push(record);
    if (this.audit.length > auditWindow) this.audit.splice(0, this.audit.length - auditWindow);
    const entry = record.entry;
    const proposal = typeof entry.proposal === 'string' ? entry.proposal : undefined;
    if (proposal && (entry.event === 'proposal_approved' || entry.event === 'proposal_rejected')) {
      this.decisions.set(proposal, {
        event: entry.event,
        decided_by: typeof entry.decided_by === 'string' ? entry.decided_by : undefined,
        envelope: (entry.envelope as Envelope | undefined) ?? undefined,
        at: record.at,
      });
    }
  }

  /** The audit records kept, oldest first. */
  auditRecords(): readonly AuditRecord[] {
    return this.audit;
  }

  /** The decision the audit log recorded for a proposal. */
  decisionOf(proposalId: string): RecordedDecision | undefined {
    return this.decisions.get(proposalId);
  }

  /** Adds a browser's event stream. */
  attach(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    response.write('retry: 2000\n\n');
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  private broadcast(event: LiveEvent): void {
    const text = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const client of this.clients) client.write(text);
  }
}
