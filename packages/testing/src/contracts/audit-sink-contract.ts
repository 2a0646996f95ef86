import type { AuditEntry, AuditSink } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, together, useHarness } from './contract-harness.js';

/** An {@link AuditSink} under test, with a way to read back what it holds (the port has none). */
export interface AuditSinkHarness extends HarnessLifecycle {
  /** The implementation under test, empty. */
  sink: AuditSink;
  /** Every entry the sink holds, in the order it keeps them (e.g. by sequence number or file line). */
  entries(): Promise<AuditEntry[]>;
}

/** Names of methods that would let a caller rewrite or drop history. */
const rewritingMethods = ['update', 'set', 'put', 'replace', 'edit', 'delete', 'remove', 'clear', 'truncate'];

/**
 * Registers the contract every {@link AuditSink} meets: entries are kept in append order, each
 * exactly once and as appended, `at` is filled in when missing, nothing appended changes later,
 * and the sink offers no way to rewrite or drop an entry. `setup` runs before each test (a fresh,
 * empty sink) and the harness's `close` after it.
 */
export function describeAuditSinkContract(name: string, setup: () => Awaitable<AuditSinkHarness>): void {
  describe(`AuditSink contract: ${name}`, () => {
    const harness = useHarness(setup);

    it('keeps entries in the order they were appended, with their fields', async () => {
      const { sink, entries } = harness();
      await sink.append({
        event: 'connector_connected',
        subject: 'ana',
        connector: 'github',
        at: '2026-11-21T15:00:00.000Z',
      });
      await sink.append({
        event: 'proposal_approved',
        subject: 'ana',
        proposal: 'prop_1',
        at: '2026-11-21T15:01:00.000Z',
      });
      await sink.append({
        event: 'connector_connected',
        subject: 'ana',
        connector: 'github',
        at: '2026-11-21T15:02:00.000Z',
      });
      expect(await entries()).toEqual([
        { event: 'connector_connected', subject: 'ana', connector: 'github', at: '2026-11-21T15:00:00.000Z' },
        { event: 'proposal_approved', subject: 'ana', proposal: 'prop_1', at: '2026-11-21T15:01:00.000Z' },
        { event: 'connector_connected', subject: 'ana', connector: 'github', at: '2026-11-21T15:02:00.000Z' },
      ]);
    });

    it('fills in `at` with the current time when an entry has none', async () => {
      const { sink, entries } = harness();
      const before = Date.now();
      await sink.append({ event: 'policy_changed', nested: { connector: 'slack', enabled: false } });
      const [entry] = await entries();
      expect(entry).toMatchObject({
        event: 'policy_changed',
        nested: { connector: 'slack', enabled: false },
      });
      expect(entry?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Date.parse(entry!.at!)).toBeGreaterThanOrEqual(before - 1_000);
      expect(Date.parse(entry!.at!)).toBeLessThanOrEqual(Date.now() + 1_000);
    });

    it('keeps what was appended unchanged by later appends or by the caller changing its object', async () => {
      const { sink, entries } = harness();
      const entry = { event: 'connector_connected', scopes: ['repo'], at: '2026-11-21T15:00:00.000Z' };
      await sink.append(entry);
      entry.scopes.push('admin');
      entry.event = 'changed';
      const first = await entries();
      for (let index = 0; index < 5; index += 1) await sink.append({ event: 'call', index });
      const later = await entries();
      expect(first).toEqual([
        { event: 'connector_connected', scopes: ['repo'], at: '2026-11-21T15:00:00.000Z' },
      ]);
      expect(later.slice(0, first.length)).toEqual(first);
      expect(later.slice(1).map((item) => item.index)).toEqual([0, 1, 2, 3, 4]);
    });

    it('keeps every entry exactly once when appends overlap', async () => {
      const { sink, entries } = harness();
      await together(20, (index) => sink.append({ event: 'call', index }));
      const indexes = (await entries()).map((entry) => entry.index as number);
      expect([...indexes].sort((left, right) => left - right)).toEqual(
        Array.from({ length: 20 }, (_, index) => index),
      );
    });

    it('offers no method that rewrites or drops an entry', () => {
      const { sink } = harness();
      const offered = rewritingMethods.filter(
        (method) => typeof (sink as unknown as Record<string, unknown>)[method] === 'function',
      );
      expect(offered).toEqual([]);
    });
  });
}
