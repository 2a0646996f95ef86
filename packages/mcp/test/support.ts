// One Acme fixture for the gate's tests and the gateway's: its connector comes from
// @patchbay/testing's createFixtureConnector, and its stateful fake service (an msw server both
// suites drive per test) lives beside the gate's tests rather than in a copy here.
export {
  createAcmeConnector,
  createAcmeServer,
  secretToken,
  serviceUrl,
} from '../../orchestrator/test/acme.js';
