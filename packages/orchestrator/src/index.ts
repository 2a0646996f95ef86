export type {
  Agent,
  AgentCallContext,
  AgentFactory,
  AgentHealth,
  AgentManifest,
  AgentTool,
  ToolAnnotations,
} from './agent.js';
export type { Proposal, ProposalState, ProposalStore } from './proposals.js';
