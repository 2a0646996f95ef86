import { describe, expect, it } from 'vitest';
import * as client from './client.js';
import * as gateway from './gateway.js';
import * as root from './index.js';
import * as internal from './internal.js';

// The runtime names of each entry of `@patchbay/mcp`. A helper exported "because a test needed it"
// fails here; tests import it from its own module, and what the CLI shares goes to /internal.
const clientNames = [
  'askUserOnElicitation',
  'authorizeMcpServer',
  'createMcpAgent',
  'createMcpAgents',
  'defaultAuthorizationTimeoutMs',
  'defaultBackoff',
  'defaultMcpTimeoutMs',
  'loadMcpServersConfig',
  'parseMcpServersConfig',
  'upstreamToolLimits',
];
const gatewayNames = [
  'connectorStatusPromptName',
  'connectorStatusResourceUri',
  'correlationIdMetaKey',
  'createMcpGateway',
  'defaultCallDeadlineMs',
  'defaultSessionIdleTimeoutMs',
  'defaultStartupWaitMs',
  'isLoopbackHost',
  'serveMcpGatewayHttp',
];

describe('@patchbay/mcp public exports', () => {
  it('@patchbay/mcp/client and @patchbay/mcp/gateway are exactly these, and the root is both', () => {
    expect(Object.keys(client).sort()).toEqual(clientNames);
    expect(Object.keys(gateway).sort()).toEqual(gatewayNames);
    expect(Object.keys(root).sort()).toEqual([...clientNames, ...gatewayNames].sort());
  });

  it('@patchbay/mcp/internal holds what the CLI shares, none of it public', () => {
    expect(Object.keys(internal).sort()).toEqual([
      'ownerCandidates',
      'screenUpstreamTools',
      'setupCommandFor',
      'sharedToolNameMessage',
      'startToolOwner',
    ]);
    for (const name of Object.keys(internal)) expect(Object.keys(root)).not.toContain(name);
  });
});
