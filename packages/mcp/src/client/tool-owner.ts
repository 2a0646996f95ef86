import type { McpAgent } from './mcp-agent-types.js';

/** What {@link startToolOwner} found. */
export interface ToolOwnerSearch {
  /** The started server that serves the tool; undefined when none does. */
  owner: McpAgent | undefined;
  /** Servers started and stopped again on the way, in order (the owner not included). */
  tried: McpAgent[];
  /** Servers never started: their prefix rules the tool out, or the owner was found first. */
  skipped: McpAgent[];
}

/**
 * Order in which servers are tried for `toolName`: a server whose prefix the name carries first
 * (with a prefix, every tool of a server is `prefix_name`, so that is almost surely the owner),
 * then servers without a prefix, those that start with the others before disabled ones. A
 * server whose prefix the name does not carry cannot serve it and is never started.
 */
export function ownerCandidates(agents: readonly McpAgent[], toolName: string): McpAgent[] {
  const prefixed = agents.filter((agent) => agent.prefix && toolName.startsWith(`${agent.prefix}_`));
  const unprefixed = agents.filter((agent) => !agent.prefix);
  return [
    ...prefixed,
    ...unprefixed.filter((agent) => agent.autoStart),
    ...unprefixed.filter((agent) => !agent.autoStart),
  ];
}

/**
 * Starts servers one at a time until one serves `toolName`, and leaves only that one running: a
 * one-shot call (`patchbay call`) then costs one server start, not one per configured server, and
 * a server that is missing, broken or slow to start delays the call only if it comes before the
 * owner. Servers that do not serve the tool are shut down before the next is started.
 */
export async function startToolOwner(
  agents: readonly McpAgent[],
  toolName: string,
): Promise<ToolOwnerSearch> {
  const candidates = ownerCandidates(agents, toolName);
  const tried: McpAgent[] = [];
  for (const agent of candidates) {
    await agent.initialize().catch(() => undefined);
    if (agent.manifest().tools.some((tool) => tool.name === toolName)) {
      return {
        owner: agent,
        tried,
        skipped: agents.filter((other) => other !== agent && !tried.includes(other)),
      };
    }
    tried.push(agent);
    await agent.shutdown().catch(() => undefined);
  }
  return { owner: undefined, tried, skipped: agents.filter((agent) => !tried.includes(agent)) };
}
