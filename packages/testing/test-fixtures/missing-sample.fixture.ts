import { describeConnectorConformance } from '../src/index.js';
import { createExample, exampleCredentials } from './example-connector.js';

// Broken on purpose: the package forgot the sample input of its destructive tool, so none of the
// HTTP failure checks can reach the network for it.
describeConnectorConformance(createExample(), {
  credentials: exampleCredentials,
  samples: { example_get_item: { id: 'item-1' } },
});
