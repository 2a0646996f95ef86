import { createExample, exampleCredentials, exampleSamples } from '../test-fixtures/example-connector.js';
import { describeConnectorConformance } from './conformance.js';

// The well-behaved example connector passes every generated test.
describeConnectorConformance(createExample(), { credentials: exampleCredentials, samples: exampleSamples });
