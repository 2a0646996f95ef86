import { defineTool } from '@patchbay/connector';
import type { StatusSource } from '@patchbay/connector/ports';
import { success } from '@patchbay/envelope';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runTurn, statusUnreadableNote } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';

// Seed 000: "graceful degradation if context building fails". A status store that throws must not
// end the turn with a raw error, must not let a single call through, and must not leak its error.

const now = () => new Date('2026-11-21T15:00:00Z');
const subject = 'ana';
const storeSecret = 'postgres://patchbay:hunter2-store-password@db.internal:5432/patchbay';

/** A status source that fails while `broken` is set, as a store whose database is down does. */
function flakyStatusSource() {
  const inner = createInMemoryStatusSource();
  const control = { broken: true, loads: 0 };
  const source: StatusSource = {
    async load(loaded) {
      control.loads += 1;
      if (control.broken) throw new Error(`connect ECONNREFUSED ${storeSecret}`);
      return inner.load(loaded);
    },
    markRateLimited: (...args) => inner.markRateLimited(...args),
    markInvalidCredentials: (...args) => inner.markInvalidCredentials(...args),
  };
  return { inner, source, control };
}

async function setup() {
  const executed: string[] = [];
  const tracker = createFixtureConnector({
    id: 'tracker',
    tools: [
      defineTool({
        name: 'tracker_create_issue',
        description: 'Creates an issue.',
        input: z.object({ title: z.string().describe('Title') }),
        effect: 'write',
        execute: async (input) => {
          executed.push(`tracker_create_issue:${input.title}`);
          return success({ key: 'WEB-1' });
        },
      }),
    ],
  });
  const { inner, source, control } = flakyStatusSource();
  inner.connect(subject, 'tracker', { credentials: { token: 'tracker-secret-1' } });
  // An admin disabled this function for the subject; with the policy unreadable it must stay out too.
  inner.disable('function:wire_money');
  const orchestrator = createOrchestrator({ statusSource: source, connectors: [tracker] });
  orchestrator.register(
    fromFunction({
      name: 'wire_money',
      description: 'Sends money.',
      input: z.object({ amount: z.number().describe('Amount') }),
      effect: 'write',
      execute: (input) => {
        executed.push(`wire_money:${input.amount}`);
        return { sent: input.amount };
      },
    }),
  );
  await orchestrator.start();
  return { tracker, source, control, orchestrator, executed };
}

describe('runTurn when the status source fails', () => {
  it('goes on, tells the model status could not be read, offers and runs nothing, leaks nothing', async () => {
    const { tracker, source, orchestrator, executed } = await setup();
    // The worst-case model: it calls every tool it knows of, offered or not, twice over.
    const calls = [
      { toolName: 'tracker_create_issue', input: { title: 'Bug' } },
      { toolName: 'wire_money', input: { amount: 100 } },
    ];
    const model = createScriptedModel([
      { toolCalls: calls },
      { toolCalls: calls },
      'I cannot reach your services right now.',
    ]);
    const result = await runTurn({
      model,
      thread: 't1',
      message: 'File a bug and wire 100.',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource: source,
      now,
      maxSteps: 3,
    });
    await orchestrator.stop();

    expect(result.reply).toBe('I cannot reach your services right now.');
    // Nothing ran: every call was refused before the gate.
    expect(executed).toEqual([]);
    expect(result.trace.calls).toHaveLength(4);
    for (const call of result.trace.calls) expect(call.envelope.ok).toBe(false);
    // Only the refresh tool is offered, and the model is told why the block is empty.
    const offered = (model.calls[0]!.tools ?? []).map((tool) => tool.name);
    expect(offered).toEqual(['refresh_connector_status']);
    const context = JSON.parse(JSON.stringify(model.calls[0]!.prompt)).at(-1).content[0].text as string;
    expect(context).toContain(
      `<connector_status captured_at="2026-11-21T15:00:00Z">{}</connector_status>\n${statusUnreadableNote}`,
    );
    expect(result.trace.connectorStatus).toEqual({});
    // The store's error (a connection string with a password) reaches neither the model nor the trace.
    const everything = JSON.stringify({ prompts: model.calls.map((call) => call.prompt), result });
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain('ECONNREFUSED');
  });

  it('refresh_connector_status fails while the store is down, and brings the tools back once it is up', async () => {
    const { tracker, source, control, orchestrator, executed } = await setup();
    let refreshes = 0;
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] },
      () => {
        // The store comes back between the two refreshes.
        refreshes += 1;
        control.broken = false;
        return { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] };
      },
      { toolCalls: [{ toolName: 'tracker_create_issue', input: { title: 'Bug' } }] },
      'Filed WEB-1.',
    ]);
    const result = await runTurn({
      model,
      thread: 't1',
      message: 'File a bug titled Bug.',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource: source,
      now,
    });
    await orchestrator.stop();

    expect(refreshes).toBe(1);
    const [failed, refreshed, created] = result.trace.calls;
    expect(failed?.envelope).toMatchObject({ ok: false, error_type: 'tool_unavailable', retryable: true });
    expect(refreshed?.envelope.ok).toBe(true);
    expect(created?.envelope.ok).toBe(true);
    expect(executed).toEqual(['tracker_create_issue:Bug']);
    // The admin-disabled function stays out once the policy can be read again.
    expect((model.calls[3]!.tools ?? []).map((tool) => tool.name)).not.toContain('wire_money');
  });
});
