import {
  describeAuditSinkContract,
  describeCheckpointerContract,
  describeProposalStoreContract,
  describeStatusSourceContract,
  describeThreadStoreContract,
} from '../../src/index.js';
import {
  auditHarness,
  checkpointerHarness,
  proposalHarness,
  referenceAuditSink,
  referenceCheckpointer,
  referenceProposalStore,
  referenceStatusSource,
  referenceThreadStore,
  statusHarness,
  threadHarness,
} from './reference-ports.js';

// The control: correct implementations pass every test, so each broken fixture's failures come
// from its defect alone.
describeStatusSourceContract('reference', () => statusHarness(referenceStatusSource));
describeProposalStoreContract('reference', () => proposalHarness(referenceProposalStore));
describeThreadStoreContract('reference', () => threadHarness(referenceThreadStore));
describeCheckpointerContract('reference', () => checkpointerHarness(referenceCheckpointer));
describeAuditSinkContract('reference', () => auditHarness(referenceAuditSink));
