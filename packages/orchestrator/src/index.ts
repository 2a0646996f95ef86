export type { Proposal, ProposalState, ProposalStore } from './proposals.js';
