import { describeProposalStoreContract } from '@patchbay/testing';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';

describeProposalStoreContract('in-memory', () => ({ store: createInMemoryProposalStore() }));
