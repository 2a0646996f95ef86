import type { Credentials } from '@patchbay/connector';
import { narrowState, type StatusSource, type SubjectState } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, together, useHarness } from './contract-harness.js';

/**
 * A {@link StatusSource} under test, with the writes the port leaves to its owner (connecting,
 * admin policy), so the suite can put state in before it reads it back.
 */
export interface StatusSourceHarness extends HarnessLifecycle {
  /** The implementation under test. */
  source: StatusSource;
  /** Stores (or replaces) a verified connection of a subject, as a successful connect does. */
  connect(
    subject: string,
    connectorId: string,
    connection: { credentials: Credentials; scopes: string[] },
  ): Awaitable<void>;
  /** Admin policy: disables a connector for one subject, or for everyone when no subject is given. */
  disable(connectorId: string, subject?: string): Awaitable<void>;
  /**
   * Another handle on the same data, as a second process would open it (a second connection or
   * file handle). Without it the tests that need one are reported as skipped. `close` closes it too.
   */
  reopen?: () => Awaitable<StatusSource>;
}

const future = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const sorted = (ids: readonly string[]) => [...ids].sort();
const byConnector = (state: SubjectState) =>
  [...state.connections].sort((left, right) => left.connectorId.localeCompare(right.connectorId));

/**
 * Registers the contract every {@link StatusSource} meets: what `load` returns, what
 * `markRateLimited` and `markInvalidCredentials` record, and that no subject sees another's state.
 * `setup` runs before each test (a fresh, empty source) and the harness's `close` after it. Rate
 * limits that have run out may be dropped by `load` or kept (readers compare with their own clock),
 * and lists come in no promised order, so the suite checks neither.
 */
export function describeStatusSourceContract(
  name: string,
  setup: () => Awaitable<StatusSourceHarness>,
): void {
  describe(`StatusSource contract: ${name}`, () => {
    const harness = useHarness(setup);

    it('loads an empty state for a subject with nothing stored', async () => {
      expect(await harness().source.load('nobody')).toEqual({
        connections: [],
        disabledConnectorIds: [],
        rateLimitedUntil: {},
      });
    });

    it('loads a stored connection with its credentials and scopes', async () => {
      const { source, connect } = harness();
      await connect('ana', 'github', { credentials: { token: 'gh-token-1' }, scopes: ['repo', 'issues'] });
      await connect('ana', 'slack', { credentials: { token: 'xoxb-1', team: 'T1' }, scopes: [] });
      const connections = byConnector(await source.load('ana'));
      expect(connections).toHaveLength(2);
      expect(connections[0]).toMatchObject({
        connectorId: 'github',
        credentials: { token: 'gh-token-1' },
        scopes: ['repo', 'issues'],
      });
      expect(connections[0]?.credentialError).toBeUndefined();
      expect(connections[1]).toMatchObject({
        connectorId: 'slack',
        credentials: { token: 'xoxb-1', team: 'T1' },
      });
    });

    it('keeps each subject’s connections, rate limits and credential errors to that subject', async () => {
      const { source, connect } = harness();
      await connect('ana', 'github', { credentials: { token: 'ana-token' }, scopes: ['repo'] });
      await connect('bo', 'github', { credentials: { token: 'bo-token' }, scopes: [] });
      await source.markRateLimited('ana', 'slack', future(5));
      await source.markInvalidCredentials('ana', 'github', 'The token was revoked.');
      const bo = await source.load('bo');
      expect(bo.connections).toEqual([expect.objectContaining({ credentials: { token: 'bo-token' } })]);
      expect(bo.connections[0]?.credentialError).toBeUndefined();
      expect(bo.rateLimitedUntil).toEqual({});
      expect((await source.load('ana')).connections[0]?.credentials).toEqual({ token: 'ana-token' });
      expect((await source.load('carol')).connections).toEqual([]);
    });

    it('applies a global disable to every subject and a per-subject one to that subject only', async () => {
      const { source, disable } = harness();
      await disable('linear');
      await disable('jira', 'ana');
      await disable('jira', 'ana');
      expect(sorted((await source.load('ana')).disabledConnectorIds)).toEqual(['jira', 'linear']);
      expect((await source.load('bo')).disabledConnectorIds).toEqual(['linear']);
    });

    it('records a rate limit until the given time, and a later mark replaces it', async () => {
      const { source } = harness();
      const first = future(10);
      await source.markRateLimited('ana', 'slack', first);
      let limits = (await source.load('ana')).rateLimitedUntil;
      expect(Object.keys(limits)).toEqual(['slack']);
      expect(Date.parse(limits.slack!)).toBe(Date.parse(first));
      // A shorter wait the service announced later wins: the latest mark is the truth.
      const second = future(2);
      await source.markRateLimited('ana', 'slack', second);
      limits = (await source.load('ana')).rateLimitedUntil;
      expect(Date.parse(limits.slack!)).toBe(Date.parse(second));
    });

    it('reads back the instant of a rate limit given with an offset', async () => {
      const { source } = harness();
      await source.markRateLimited('ana', 'slack', '2099-01-01T01:00:00+01:00');
      const until = (await source.load('ana')).rateLimitedUntil.slack;
      expect(until).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(Date.parse(until!)).toBe(Date.parse('2099-01-01T00:00:00Z'));
    });

    it('rejects a rate limit that is not a time, recording nothing', async () => {
      const { source } = harness();
      await expect(source.markRateLimited('ana', 'slack', 'soon')).rejects.toThrow();
      expect((await source.load('ana')).rateLimitedUntil).toEqual({});
    });

    it('keeps every rate limit when several connectors are marked at once', async () => {
      const { source } = harness();
      const until = future(30);
      await together(8, (index) => source.markRateLimited('ana', `service${index}`, until));
      expect(sorted(Object.keys((await source.load('ana')).rateLimitedUntil))).toEqual(
        sorted(Array.from({ length: 8 }, (_, index) => `service${index}`)),
      );
    });

    it('marks a stored connection invalid with the sentence, keeping its credentials and scopes', async () => {
      const { source, connect } = harness();
      await connect('ana', 'jira', { credentials: { token: 'jira-token' }, scopes: ['write'] });
      await source.markInvalidCredentials('ana', 'jira', 'HTTP 401 from Jira.');
      expect((await source.load('ana')).connections).toEqual([
        expect.objectContaining({
          connectorId: 'jira',
          credentials: { token: 'jira-token' },
          scopes: ['write'],
          credentialError: 'HTTP 401 from Jira.',
        }),
      ]);
    });

    it('creates no connection when marking a connector the subject never connected', async () => {
      const { source } = harness();
      await source.markInvalidCredentials('ana', 'jira', 'HTTP 401 from Jira.');
      expect((await source.load('ana')).connections).toEqual([]);
    });

    it('forgets a credential error when the subject connects again', async () => {
      const { source, connect } = harness();
      await connect('ana', 'jira', { credentials: { token: 'old' }, scopes: [] });
      await source.markInvalidCredentials('ana', 'jira', 'Revoked.');
      await connect('ana', 'jira', { credentials: { token: 'new' }, scopes: [] });
      const [connection] = (await source.load('ana')).connections;
      expect(connection?.credentials).toEqual({ token: 'new' });
      expect(connection?.credentialError).toBeUndefined();
    });

    it('hands out copies, so a caller changing what it loaded changes nothing stored', async () => {
      const { source, connect } = harness();
      await connect('ana', 'github', { credentials: { token: 't' }, scopes: ['repo'] });
      await source.markRateLimited('ana', 'slack', future(5));
      const loaded = await source.load('ana');
      loaded.connections[0]!.scopes.push('admin');
      (loaded.connections[0]!.credentials as Record<string, string>).token = 'changed';
      loaded.rateLimitedUntil.github = future(5);
      loaded.disabledConnectorIds.push('github');
      const again = await source.load('ana');
      expect(again.connections[0]).toMatchObject({ scopes: ['repo'], credentials: { token: 't' } });
      expect(Object.keys(again.rateLimitedUntil)).toEqual(['slack']);
      expect(again.disabledConnectorIds).toEqual([]);
    });

    it('answers a per-connector lookup with what load says about those connectors', async (context) => {
      const { source, connect, disable } = harness();
      if (!source.loadConnectors) return context.skip('the implementation has no loadConnectors');
      await connect('ana', 'github', { credentials: { token: 'gh-token' }, scopes: ['repo'] });
      await connect('ana', 'slack', { credentials: { token: 'xoxb', team: 'T1' }, scopes: [] });
      await connect('ana', 'jira', { credentials: { token: 'jira-token' }, scopes: ['write'] });
      await connect('bo', 'linear', { credentials: { token: 'bo-linear' }, scopes: [] });
      await source.markInvalidCredentials('ana', 'jira', 'HTTP 401 from Jira.');
      await source.markRateLimited('ana', 'slack', future(20));
      await source.markRateLimited('ana', 'notion', future(20));
      await source.markRateLimited('bo', 'github', future(20));
      await disable('linear');
      await disable('github', 'ana');
      await disable('slack', 'bo');
      const canonical = (state: SubjectState) => ({
        connections: byConnector(state),
        disabledConnectorIds: sorted(state.disabledConnectorIds),
        rateLimitedUntil: Object.fromEntries(
          Object.entries(state.rateLimitedUntil).map(([id, until]) => [id, Date.parse(until)]),
        ),
      });
      const cases: string[][] = [
        ['github'],
        ['slack'],
        ['jira'],
        ['linear'],
        ['notion'],
        ['never-connected'],
        ['github', 'slack', 'linear'],
        ['jira', 'jira'],
        [],
      ];
      for (const subject of ['ana', 'bo', 'carol']) {
        const everything = await source.load(subject);
        for (const ids of cases) {
          const narrowed = await source.loadConnectors(subject, ids);
          expect(canonical(narrowed), `${subject}: ${ids.join(',')}`).toEqual(
            canonical(narrowState(everything, ids)),
          );
        }
      }
      // Spot checks, so a lookup and a load that agree on nothing would still fail.
      const github = await source.loadConnectors('ana', ['github']);
      expect(github.connections).toEqual([
        expect.objectContaining({
          connectorId: 'github',
          credentials: { token: 'gh-token' },
          scopes: ['repo'],
        }),
      ]);
      expect(github.disabledConnectorIds).toEqual(['github']);
      expect((await source.loadConnectors('ana', ['jira'])).connections[0]?.credentialError).toBe(
        'HTTP 401 from Jira.',
      );
      expect(Object.keys((await source.loadConnectors('ana', ['slack'])).rateLimitedUntil)).toEqual([
        'slack',
      ]);
      expect((await source.loadConnectors('bo', ['slack', 'linear'])).disabledConnectorIds.sort()).toEqual([
        'linear',
        'slack',
      ]);
    });

    it('shows what one handle records to another handle on the same data', async (context) => {
      const { source, connect, reopen } = harness();
      if (!reopen) return context.skip('the implementation offers no second handle');
      await connect('ana', 'jira', { credentials: { token: 'jira-token' }, scopes: [] });
      const other = await reopen();
      const until = future(15);
      await source.markRateLimited('ana', 'slack', until);
      await other.markInvalidCredentials('ana', 'jira', 'Revoked.');
      const seenByOther = await other.load('ana');
      expect(Date.parse(seenByOther.rateLimitedUntil.slack!)).toBe(Date.parse(until));
      expect((await source.load('ana')).connections[0]?.credentialError).toBe('Revoked.');
    });
  });
}
