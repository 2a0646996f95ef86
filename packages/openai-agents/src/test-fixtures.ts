import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createTurnFixtureConnectors } from '@patchbay/testing';

/** What reached a connector's code: the tests count these, not what the model asked for. */
export const executed: { tool: string; input: unknown }[] = [];

/** Two fixture connectors: `tracker` (connected for ana) and `chat` (not configured). */
export const connectors = createTurnFixtureConnectors(executed);

/** A started gate over the fixture connectors, with ana's tracker connected; `executed` emptied. */
export async function setupGate() {
  executed.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  return { statusSource, orchestrator, connectors, subject: 'ana' };
}
