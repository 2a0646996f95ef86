import { createFixtureConnector } from '@patchbay/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  acmeConnection,
  createAcmeConnector,
  createAcmeServer,
  createTestStatusSource,
} from '../test/support.js';
import { createOrchestrator } from './orchestrator.js';

const acme = createAcmeServer();
beforeAll(() => acme.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => acme.reset());
afterAll(() => acme.server.close());

const subject = 'user-1';

// The Acme tools under a connector whose `tickets:admin` scope implies the other two, as GitHub's
// `repo` implies `public_repo`. The connection is stored as an app would through the store API:
// with the parent scope only, never expanded by verify().
function adminConnector() {
  return createFixtureConnector({
    id: 'acme',
    scopes: [
      { name: 'tickets:admin', description: 'Everything on tickets', implies: ['tickets:write'] },
      { name: 'tickets:write', description: 'Create and delete tickets', implies: ['tickets:read'] },
      { name: 'tickets:read', description: 'Read tickets' },
    ],
    tools: createAcmeConnector().tools,
  });
}

async function setup(scopes: string[]) {
  const statusSource = createTestStatusSource();
  statusSource.connect(subject, acmeConnection(scopes));
  const orchestrator = createOrchestrator({ statusSource, connectors: [adminConnector()] });
  await orchestrator.start();
  return orchestrator;
}

describe('scope implication at the gate', () => {
  it('runs a tool whose scope the stored parent scope implies (transitively)', async () => {
    const orchestrator = await setup(['tickets:admin']);
    const created = await orchestrator.execute('acme_create_ticket', { title: 'Hi' }, { subject });
    expect(created).toMatchObject({ ok: true, data: { title: 'Hi' } });
    const read = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(read).toMatchObject({ ok: true, data: { id: 'T-1' } });
    expect(acme.requests).toHaveLength(2);
  });

  it('still refuses, with no request sent, when nothing granted implies the required scope', async () => {
    const orchestrator = await setup(['tickets:read']);
    const result = await orchestrator.execute('acme_create_ticket', { title: 'Hi' }, { subject });
    expect(result).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['tickets:write'],
    });
    expect(acme.requests).toHaveLength(0);
  });
});

describe('setupUrls setting', () => {
  it("puts the app's setup page in envelopes instead of the connector's", async () => {
    const statusSource = createTestStatusSource();
    const orchestrator = createOrchestrator({
      statusSource,
      connectors: [createAcmeConnector()],
      setupUrls: { acme: '/settings/integrations/acme' },
    });
    await orchestrator.start();
    const result = await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      setup_url: '/settings/integrations/acme',
    });
  });
});
