import type { McpAgent } from './mcp-agent-types.js';

/** What {@link startToolOwner} found. */
export interface ToolOwnerSearch {
  /** The one started server that serves the tool; undefined when none does or several do. */
  owner: McpAgent | undefined;
  /**
   * Every server found serving the tool, in the order tried. More than one is a shared name: none
   * of them is left running, and the caller refuses the call as the gateway does (see
   * `sharedToolNameMessage`) instead of running whichever came first.
   */
  owners: McpAgent[];
  /** Servers started and stopped again on the way, in order (the owner not included). */
  tried: McpAgent[];
  /** Servers never started: their prefix rules the tool out, or a disabled one after the owner. */
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
 * Starts servers one at a time until one serves `toolName`, then the remaining candidates the
 * gateway would also start, all at once, to learn whether another one declares the same name: a
 * one-shot call (`patchbay call`) must refuse a shared name as the gateway and `runTurn` do, not run
 * whichever server came first. Only a unique owner is left running; every other server is shut down,
 * also when starting it failed. A server whose prefix the name does not carry is never started, so
 * with a prefix on every server a call starts exactly one.
 */
export async function startToolOwner(
  agents: readonly McpAgent[],
  toolName: string,
): Promise<ToolOwnerSearch> {
  const candidates = ownerCandidates(agents, toolName);
  const tried: McpAgent[] = [];
  const serves = (agent: McpAgent) => agent.manifest().tools.some((tool) => tool.name === toolName);
  const start = async (agent: McpAgent) => {
    await agent.initialize().catch(() => undefined);
    return serves(agent);
  };
  const stop = (agent: McpAgent) => agent.shutdown().catch(() => undefined);
  for (const [index, agent] of candidates.entries()) {
    if (!(await start(agent))) {
      tried.push(agent);
      await stop(agent);
      continue;
    }
    // Disabled servers (`autoStart: false`) are not started by the gateway either, so they can share a
    // name with an auto-started owner without a conflict there; past an owner that is itself disabled,
    // every candidate left is disabled and counts.
    const rest = candidates.slice(index + 1).filter((other) => other.autoStart || !agent.autoStart);
    const alsoServe = await Promise.all(rest.map(start));
    const others = rest.filter((_, position) => alsoServe[position]);
    const owners = [agent, ...others];
    const unique = owners.length === 1;
    await Promise.all([...rest, ...(unique ? [] : [agent])].map(stop));
    tried.push(...rest.filter((_, position) => !alsoServe[position]));
    const started = new Set<McpAgent>([agent, ...rest]);
    return {
      owner: unique ? agent : undefined,
      owners,
      tried,
      skipped: agents.filter((other) => !started.has(other) && !tried.includes(other)),
    };
  }
  return { owner: undefined, owners: [], tried, skipped: agents.filter((agent) => !tried.includes(agent)) };
}
