import { describe, expect, it } from 'vitest';
import * as api from './index.js';

// The runtime names of `@patchbay/cli`'s entry: what an embedder may use. A helper exported "because
// a test needed it" fails here; tests import it from its own module.
describe('@patchbay/cli public exports', () => {
  it('are exactly these', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CliError',
      'discoverConnectors',
      'exitCodes',
      'loadConfig',
      'runCli',
    ]);
  });
});
