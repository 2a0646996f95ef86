export { type AuditSinkHarness, describeAuditSinkContract } from './audit-sink-contract.js';
export { type CheckpointerHarness, describeCheckpointerContract } from './checkpointer-contract.js';
export type { Awaitable, HarnessLifecycle } from './contract-harness.js';
export { describeMemoryStoreContract, type MemoryStoreHarness } from './memory-store-contract.js';
export { describeProposalStoreContract, type ProposalStoreHarness } from './proposal-store-contract.js';
export { describeResumeLedgerContract, type ResumeLedgerHarness } from './resume-ledger-contract.js';
export { describeStatusSourceContract, type StatusSourceHarness } from './status-source-contract.js';
export { describeThreadStoreContract, type ThreadStoreHarness } from './thread-store-contract.js';
export {
  describeWatchableStatusSourceContract,
  type StatusWriter,
  type WatchableStatusSourceHarness,
} from './watchable-status-source-contract.js';
