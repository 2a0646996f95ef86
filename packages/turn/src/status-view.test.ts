import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createTurnFixtureConnectors } from '@patchbay/testing';
import { describe, expect, it, vi } from 'vitest';
import { createTurnSession } from './turn-session.js';

// What a step reuses when status did not change (the block, its JSON, the offer) must never hide a
// change: status is still read once per step, and whatever changed shows in that step's plan.

const connectors = createTurnFixtureConnectors([]);

async function setup(clock = { now: new Date('2026-11-21T15:00:00Z') }) {
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
  let loads = 0;
  const load = statusSource.load.bind(statusSource);
  statusSource.load = async (subject) => {
    loads += 1;
    return load(subject);
  };
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  const session = () =>
    createTurnSession({ subject: 'ana', orchestrator, connectors, statusSource, now: () => clock.now });
  return { statusSource, session, loads: () => loads, clock };
}

describe('a step reuses what equal status shows, and sees every change', () => {
  it('reads the status source once per step, and reuses the block of equal status across steps and turns', async () => {
    const { session, loads } = await setup();
    const first = session();
    const one = await first.prepareStep();
    const two = await first.prepareStep();
    const other = await session().prepareStep();
    expect(loads()).toBe(3);
    // Equal status: the same status object, not one built again per step and per turn.
    expect(two.connectorStatus).toBe(one.connectorStatus);
    expect(other.connectorStatus).toBe(one.connectorStatus);
    expect(two.context).toBe(one.context);
  });

  it('shows a change made between two steps, and the change back, in the very next step', async () => {
    const { statusSource, session } = await setup();
    const turn = session();
    const before = await turn.prepareStep();
    expect(before.activeTools).not.toContain('chat_post_message');
    statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
    const connected = await turn.prepareStep();
    expect(connected.activeTools).toContain('chat_post_message');
    expect(connected.connectorStatus.chat?.status).toBe('connected');
    expect(connected.context).toContain('"chat":{"scopes"');
    statusSource.disconnect('ana', 'chat');
    const again = await turn.prepareStep();
    expect(again.activeTools).toEqual(before.activeTools);
    expect(again.connectorStatus.chat?.status).toBe('not_configured');
    statusSource.disable('tracker');
    const disabled = await turn.prepareStep();
    expect(disabled.activeTools).toEqual(['refresh_connector_status']);
    expect(disabled.context).not.toContain('tracker');
  });

  it('shows a credential error that appears between steps, though the connector stays in the block', async () => {
    const { statusSource, session } = await setup();
    const turn = session();
    await turn.prepareStep();
    await statusSource.markInvalidCredentials('ana', 'tracker', 'The token was revoked.');
    const plan = await turn.prepareStep();
    expect(plan.connectorStatus.tracker).toMatchObject({
      status: 'invalid_credentials',
      error: 'The token was revoked.',
    });
    expect(plan.activeTools).toEqual(['refresh_connector_status']);
  });

  it('counts a rate limit down per capture: the answer to an unoffered call says the time left now', async () => {
    // The answer's `retry_after_s` is counted from the system clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-21T15:00:00Z'));
      const { statusSource, session } = await setup();
      await statusSource.markRateLimited('ana', 'tracker', '2026-11-21T15:01:00Z');
      const retryAfter = async () => {
        const turn = session();
        await turn.prepareStep();
        const answer = await turn.call('tracker_create_issue', { project: 'WEB', title: 'Later' });
        expect(answer.skipped).toBe('not_offered');
        return (answer.envelope as { retry_after_s?: number }).retry_after_s;
      };
      expect(await retryAfter()).toBe(60);
      vi.setSystemTime(new Date('2026-11-21T15:00:40Z'));
      expect(await retryAfter()).toBe(20);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shares the status object between turns read-only: changing it throws', async () => {
    const { session } = await setup();
    const plan = await session().prepareStep();
    expect(() => {
      (plan.connectorStatus as Record<string, unknown>).tracker = { status: 'connected', tools: [] };
    }).toThrow(TypeError);
    expect(() => {
      (plan.activeTools as string[]).push('tracker_delete_issue');
    }).not.toThrow();
    expect((await session().prepareStep()).activeTools).not.toContain('chat_post_message');
  });
});
