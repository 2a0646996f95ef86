// The ports: what a store implements and the core reads. A connector author never needs them.
export type { AuditEntry, AuditSink } from './audit-sink.js';
export type { Checkpointer } from './checkpointer.js';
export type {
  ListEntriesOptions,
  MemoryContext,
  MemoryEntry,
  MemoryRecord,
  MemorySearchHit,
  MemorySearchQuery,
  MemoryStore,
  MemoryVault,
  NewMemoryEntry,
} from './memory-store.js';
export type { Proposal, ProposalDecision, ProposalState, ProposalStore } from './proposal-store.js';
export type { ResumeLedger } from './resume-ledger.js';
export {
  isWatchable,
  loadConnectorState,
  narrowState,
  type StatusChange,
  type StatusSource,
  type StoredConnection,
  type SubjectState,
  type WatchableStatusSource,
} from './status-source.js';
export {
  messageSentAt,
  type StoredMessage,
  type StoredMessagePart,
  type Thread,
  type ThreadStore,
} from './thread-store.js';
