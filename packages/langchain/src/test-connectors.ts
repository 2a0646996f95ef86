import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createTurnFixtureConnectors } from '@patchbay/testing';

/** Every call a connector's code ran, in order: what the tests count. */
export const executed: { tool: string; input: unknown }[] = [];

/** The connectors of the tests: tracker (connected by default), chat (not configured). */
export const connectors = createTurnFixtureConnectors(executed);

/** A fresh world: ana has tracker connected, chat not; the gate over both connectors. */
export async function setupWorld() {
  executed.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  return { subject: 'ana', statusSource, orchestrator, connectors };
}
