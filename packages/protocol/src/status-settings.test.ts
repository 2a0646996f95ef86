import { describe, expect, it } from 'vitest';
import { allConnectors, snapshotOf } from '../test/fixtures.ts';
import { connectorStatusWire, defaultDisabledReason, renderTurnContext } from './turn-context.js';

const connectors = allConnectors();
const snapshot = snapshotOf({
  github: { status: 'not_configured' },
  jira: { status: 'invalid_credentials', error: 'Token revoked.' },
  linear: { status: 'disabled_by_admin' },
});

describe('app settings of the status block', () => {
  it("uses the app's own setup_url per connector without copying the connector", () => {
    const wire = connectorStatusWire(snapshot, {
      connectors,
      setupUrls: { github: '/settings/integrations/github' },
    });
    expect(wire.github).toMatchObject({
      status: 'not_configured',
      setup_url: '/settings/integrations/github',
    });
    // Connectors the map leaves out keep their own.
    expect(wire.jira).toMatchObject({ setup_url: connectors.find((c) => c.id === 'jira')?.setupUrl });
    const rendered = renderTurnContext(snapshot, { connectors, setupUrls: { github: '/mine' } });
    expect(rendered).toContain('"setup_url":"/mine"');
  });

  it("gives a shown admin-disabled entry the seed's reason, and still hides it by default", () => {
    expect(connectorStatusWire(snapshot, { connectors }).linear).toBeUndefined();
    expect(connectorStatusWire(snapshot, { connectors, includeDisabled: true }).linear).toEqual({
      status: 'disabled_by_admin',
      reason: defaultDisabledReason,
    });
    const wire = connectorStatusWire(snapshot, {
      connectors,
      includeDisabled: true,
      disabledReasons: { linear: 'Organization policy' },
    });
    expect(wire.linear).toEqual({ status: 'disabled_by_admin', reason: 'Organization policy' });
  });
});
