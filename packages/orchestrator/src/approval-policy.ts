import type { Agent, AgentTool } from './agent.js';
import { argsHash } from './args-hash.js';

/**
 * Whether a call of the tool needs a person's approval: destructive tools always; tools of
 * untrusted agents unless they declare `readOnlyHint`. A tool's own `trusted` overrides its agent's.
 */
export function requiresApproval(tool: AgentTool, agent: Pick<Agent, 'trusted'>): boolean {
  if (tool.effect === 'destructive' || tool.annotations?.destructiveHint === true) return true;
  const trusted = tool.trusted ?? agent.trusted ?? false;
  return !trusted && tool.annotations?.readOnlyHint !== true;
}

/** The pinned identity of a tool definition: what a person approved when approving a call of it. */
export function definitionHash(tool: AgentTool): string {
  return argsHash({
    description: tool.description,
    input_schema: tool.inputJsonSchema,
    annotations: tool.annotations ?? {},
  });
}
