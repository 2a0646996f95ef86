import type { StatusChange, WatchableStatusSource } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, useHarness } from './contract-harness.js';

/**
 * The writes whose announcements the suite waits for, made through another handle on the same data
 * (as another process would make them), so a source that only hears its own writes fails.
 */
export interface StatusWriter {
  /** Stores a verified connection. */
  connect(subject: string, connectorId: string): Awaitable<void>;
  /** Removes a connection. */
  disconnect(subject: string, connectorId: string): Awaitable<void>;
  /** Admin policy: disables a connector for one subject, or for everyone. */
  disable(connectorId: string, subject?: string): Awaitable<void>;
  /** Records a rate limit. */
  markRateLimited(subject: string, connectorId: string, until: string): Awaitable<void>;
  /** Flags stored credentials as rejected. */
  markInvalidCredentials(subject: string, connectorId: string, error: string): Awaitable<void>;
  /** Creates a pending proposal of `subject` owned by `connectorId` and approves it. Omit when the source has no proposals. */
  decideProposal?: (subject: string, connectorId: string) => Awaitable<void>;
}

/** A {@link WatchableStatusSource} under test and a second handle that writes to the same data. */
export interface WatchableStatusSourceHarness extends HarnessLifecycle {
  /** The implementation under test, subscribed to by the suite. */
  source: WatchableStatusSource;
  /** Another handle on the same data. */
  writer: StatusWriter;
  /** Resolves once subscriptions made so far hear changes (e.g. a LISTEN in place); default at once. */
  subscribed?: () => Awaitable<void>;
}

/** How long an announcement may take in the suite: generous, since timing belongs in benchmarks. */
const announcementTimeoutMs = 10_000;

/** Collects what a subscription hears, with a wait for the first change that matches. */
function record(source: WatchableStatusSource) {
  const heard: StatusChange[] = [];
  const waiters = new Set<() => void>();
  const unsubscribe = source.subscribe((change) => {
    heard.push(change);
    for (const waiter of waiters) waiter();
  });
  const find = (match: Partial<StatusChange>) =>
    heard.find((change) =>
      Object.entries(match).every(([key, value]) => change[key as keyof StatusChange] === value),
    );
  const waitFor = (match: Partial<StatusChange>) =>
    new Promise<StatusChange>((resolve, reject) => {
      const check = () => {
        const found = find(match);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no announcement ${JSON.stringify(match)}; heard ${JSON.stringify(heard)}`));
      }, announcementTimeoutMs);
      waiters.add(check);
      check();
    });
  return { heard, waitFor, unsubscribe };
}

/**
 * Registers the contract of {@link WatchableStatusSource}: every change another handle commits
 * (connect, disconnect, policy, rate limit, invalid credentials, a proposal decided) reaches a
 * subscriber with its kind, subject and connector; nothing reaches it after it unsubscribes; a
 * listener that throws does not keep a change from the others.
 */
export function describeWatchableStatusSourceContract(
  name: string,
  setup: () => Awaitable<WatchableStatusSourceHarness>,
): void {
  describe(`WatchableStatusSource contract: ${name}`, () => {
    const harness = useHarness(setup);

    async function subscribe() {
      const recorder = record(harness().source);
      await harness().subscribed?.();
      return recorder;
    }

    it('announces a connect and a disconnect made through another handle', async () => {
      const { writer } = harness();
      const { waitFor, unsubscribe } = await subscribe();
      await writer.connect('ana', 'github');
      await waitFor({ kind: 'connection', subject: 'ana', connectorId: 'github' });
      await writer.disconnect('ana', 'github');
      await waitFor({ kind: 'connection', subject: 'ana', connectorId: 'github' });
      unsubscribe();
    });

    it('announces admin policy, global without a subject and per subject with it', async () => {
      const { writer } = harness();
      const { waitFor, unsubscribe } = await subscribe();
      await writer.disable('jira', 'ana');
      await waitFor({ kind: 'policy', subject: 'ana', connectorId: 'jira' });
      await writer.disable('linear');
      const global = await waitFor({ kind: 'policy', connectorId: 'linear' });
      expect(global.subject).toBeUndefined();
      unsubscribe();
    });

    it('announces a rate limit and rejected credentials', async () => {
      const { writer } = harness();
      await writer.connect('ana', 'slack');
      const { waitFor, unsubscribe } = await subscribe();
      await writer.markRateLimited('ana', 'slack', new Date(Date.now() + 60_000).toISOString());
      await waitFor({ kind: 'rate_limit', subject: 'ana', connectorId: 'slack' });
      await writer.markInvalidCredentials('ana', 'slack', 'HTTP 401 from Slack.');
      await waitFor({ kind: 'invalid_credentials', subject: 'ana', connectorId: 'slack' });
      unsubscribe();
    });

    it('announces a proposal decided', async (context) => {
      const { writer } = harness();
      if (!writer.decideProposal) return context.skip('the implementation has no proposals');
      const { waitFor, unsubscribe } = await subscribe();
      await writer.decideProposal('ana', 'tracker');
      await waitFor({ kind: 'proposal', subject: 'ana' });
      unsubscribe();
    });

    it('tells nothing of changes made before the subscription or after unsubscribing', async () => {
      const { writer } = harness();
      await writer.connect('ana', 'before');
      const first = await subscribe();
      const second = await subscribe();
      await writer.connect('ana', 'during');
      await first.waitFor({ connectorId: 'during' });
      await second.waitFor({ connectorId: 'during' });
      first.unsubscribe();
      await writer.connect('ana', 'after');
      // The second subscriber hearing "after" proves the first had its chance to hear it too.
      await second.waitFor({ connectorId: 'after' });
      second.unsubscribe();
      expect(first.heard.map((change) => change.connectorId)).toEqual(['during']);
    });

    it('still tells the other listeners when one throws', async () => {
      const { writer, source } = harness();
      const unsubscribeThrowing = source.subscribe(() => {
        throw new Error('listener failed');
      });
      const { waitFor, unsubscribe } = await subscribe();
      await writer.connect('ana', 'github');
      await waitFor({ kind: 'connection', connectorId: 'github' });
      unsubscribe();
      unsubscribeThrowing();
    });
  });
}
