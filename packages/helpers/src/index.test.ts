// What implementations call, pinned: a name added here is behaviour every connector and the core may
// come to rely on, so it is an API decision for review (with a changeset), not a side effect.
import { describe, expect, it } from 'vitest';

describe('@patchbay/helpers: public surface', () => {
  it('exports the HTTP client, the status and availability rules, origin binding and the small text rules', async () => {
    const runtime = Object.keys(await import('./index.js')).sort();
    expect(runtime).toEqual([
      'bindConnectionsToOrigins',
      'canonicalJson',
      'createHttpClient',
      'displayIdentity',
      'exceedsDepth',
      'expandScopes',
      'invokeTool',
      'isLoopbackHostname',
      'maxArgumentDepth',
      'originMismatch',
      'secretCredentialValues',
      'statusEntriesFromState',
      'tooDeepMessage',
      'toolAvailability',
      'toolDescriptionForModel',
      'unknownConnectorIds',
    ]);
  });
});
