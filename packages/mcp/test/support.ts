// One Acme fixture for the gate's tests and the gateway's: until @patchbay/testing offers a
// fixture-connector factory, the gateway tests use the orchestrator's rather than a copy.
export {
  createAcmeConnector,
  createAcmeServer,
  secretToken,
  serviceUrl,
} from '../../orchestrator/test/acme.js';
