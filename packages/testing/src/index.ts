export { type CallConnectorToolOptions, callConnectorTool } from './call-connector-tool.js';
export { type CallToolAsSubjectOptions, callToolAsSubject } from './call-tool-as-subject.js';
export { canaryCredentials, canarySecret, findSecretLeaks } from './canary.js';
export {
  type ConformanceOptions,
  defaultExpectedErrorTypes,
  defaultFailureResponses,
  describeConnectorConformance,
  type FailureKind,
  failureKinds,
} from './conformance.js';
export {
  type AuditSinkHarness,
  type Awaitable,
  type CheckpointerHarness,
  describeAuditSinkContract,
  describeCheckpointerContract,
  describeMemoryStoreContract,
  describeProposalStoreContract,
  describeResumeLedgerContract,
  describeStatusSourceContract,
  describeThreadStoreContract,
  describeWatchableStatusSourceContract,
  type HarnessLifecycle,
  type MemoryStoreHarness,
  type ProposalStoreHarness,
  type ResumeLedgerHarness,
  type StatusSourceHarness,
  type StatusWriter,
  type ThreadStoreHarness,
  type WatchableStatusSourceHarness,
} from './contracts/index.js';
export {
  createFixtureConnector,
  type FixtureConnectorOptions,
  type FixtureToolSpec,
} from './fixture-connector.js';
export { defaultCapturedAt, type SnapshotForOptions, snapshotFor } from './snapshot-for.js';
export {
  assertNoUnhandledRequests,
  createTestServer,
  type RecordedRequest,
  type ResponseSpec,
  type Route,
  type RouteResolver,
  type Routes,
  responseFrom,
  type TestServer,
  type TestServerOptions,
} from './test-server.js';
export { createTurnFixtureConnectors, type FixtureToolRun } from './turn-fixture-connectors.js';
