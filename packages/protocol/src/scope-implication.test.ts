import type { Connector, StatusSnapshot } from '@patchbay/connector';
import { createGithub } from '@patchbay/connector-github';
import { toolAvailability } from '@patchbay/helpers';
import { describe, expect, it } from 'vitest';
import { exposedTools, unavailableTools } from './tool-exposure.js';
import { connectorStatusWire } from './turn-context.js';

// A connection saved through the store API carries what the service reported (`repo`), not the
// expanded set the CLI's verify() stores; implication must still let `repo` pass `public_repo` tools.
const github: Connector = createGithub();
const storedWithRepo: StatusSnapshot = {
  subject: 'ana',
  capturedAt: '2026-01-01T00:00:00.000Z',
  connectors: { github: { id: 'github', status: 'connected', scopes: ['repo'] } },
  unknownConnectorIds: [],
};

describe('scope implication outside verification', () => {
  it("exposes every GitHub issue tool to a connection stored with only 'repo'", () => {
    const names = exposedTools(storedWithRepo, [github], { includeMetaTool: false }).map((tool) => tool.name);
    expect(names).toEqual(github.tools.map((tool) => tool.name).sort());
    expect(names).toContain('github_create_issue');
    expect(unavailableTools(storedWithRepo, [github])).toEqual([]);
  });

  it("lists the write tools in the turn context of a 'repo' connection", () => {
    const entry = connectorStatusWire(storedWithRepo, { connectors: [github] }).github as { tools: string[] };
    expect(entry.tools).toEqual(expect.arrayContaining(['github_close_issue', 'github_create_issue']));
  });

  it("shows the scopes 'repo' includes in the block, as the gate reads them", () => {
    const entry = connectorStatusWire(storedWithRepo, { connectors: [github] }).github as {
      scopes: string[];
    };
    expect(entry.scopes).toEqual(['public_repo', 'repo']);
  });

  it("still withholds the write tools when neither 'repo' nor 'public_repo' is granted", () => {
    const readOnly: StatusSnapshot = {
      ...storedWithRepo,
      connectors: { github: { id: 'github', status: 'connected', scopes: ['read:org'] } },
    };
    const create = github.tools.find((tool) => tool.name === 'github_create_issue')!;
    expect(toolAvailability(create, readOnly)).toMatchObject({
      available: false,
      reason: { kind: 'missing_scopes', scopes: ['public_repo'] },
    });
  });
});
