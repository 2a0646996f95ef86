// Test agents of `gate.agents` (scenario-format/gate-schema.ts): agents whose tools carry exactly the
// effect, hints and trust a scenario gives them (a connector's or function's tools always derive
// their hints from their effect), so the approval policy can be asked about every combination. Each
// tool takes any object, records its run for `ran`, and answers `{ ran: <tool> }`.
import type { Agent, AgentTool, ToolAnnotations } from '@patchbay/orchestrator';
import type { ToolRunLog } from '../config.js';
import type { ProbeAgentSpec } from '../scenario-format/gate-schema.js';

/** A change to one tool's definition (`redefine`): a new description, or an added annotation. */
export interface ProbeRedefinition {
  tool: string;
  /** Registered under this id instead (another agent now serves the tool). */
  as?: string | undefined;
  description?: string | undefined;
  idempotent_hint?: boolean | undefined;
}

function annotationsOf(spec: ProbeAgentSpec['tools'][string]): ToolAnnotations | undefined {
  const annotations: ToolAnnotations = {
    ...(spec.read_only_hint !== undefined ? { readOnlyHint: spec.read_only_hint } : {}),
    ...(spec.destructive_hint !== undefined ? { destructiveHint: spec.destructive_hint } : {}),
  };
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/** The tools of a test agent, with a redefinition applied. */
export function probeTools(spec: ProbeAgentSpec, change?: ProbeRedefinition): AgentTool[] {
  return Object.entries(spec.tools).map(([name, tool]) => {
    const changed = change?.tool === name ? change : undefined;
    const annotations = {
      ...annotationsOf(tool),
      ...(changed?.idempotent_hint !== undefined ? { idempotentHint: changed.idempotent_hint } : {}),
    };
    return {
      name,
      description: changed?.description ?? tool.description ?? `Test tool ${name}.`,
      inputJsonSchema: { type: 'object' },
      effect: tool.effect,
      ...(tool.connector !== undefined ? { connectorId: tool.connector } : {}),
      requiredScopes: [],
      requires: [],
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(tool.trusted !== undefined ? { trusted: tool.trusted } : {}),
    };
  });
}

/** A test agent; every run of its tools is pushed to `log`. */
export function probeAgent(
  id: string,
  spec: ProbeAgentSpec,
  log: ToolRunLog,
  change?: ProbeRedefinition,
): Agent {
  const tools = probeTools(spec, change);
  return {
    id,
    ...(spec.trusted !== undefined ? { trusted: spec.trusted } : {}),
    async initialize() {},
    async shutdown() {},
    async health() {
      return { status: 'up' };
    },
    manifest() {
      return {
        id,
        kind: 'function',
        name: id,
        ...(spec.requires_approval ? { requiresApproval: true } : {}),
        tools,
      };
    },
    async execute(toolName, args) {
      log.push({ tool: toolName, input: args });
      return { ok: true, data: { ran: toolName } };
    },
  };
}

/** What registering `gate.agents` needs of the orchestrator. */
interface Registry {
  register(agent: Agent): void;
  unregister(agentId: string): Promise<void>;
}

/**
 * Registers the test agents of `gate.agents`; returns `redefine`, which replaces one by an agent of
 * the same id whose tool is redefined (as an app redeploys a function with a new description).
 */
export function registerProbes(
  orchestrator: Registry,
  agents: Readonly<Record<string, ProbeAgentSpec>> | undefined,
  log: ToolRunLog,
): ((agent: string, change: ProbeRedefinition) => Promise<void>) | undefined {
  if (!agents) return undefined;
  const specs = new Map(Object.entries(agents));
  for (const [id, spec] of specs) orchestrator.register(probeAgent(id, spec, log));
  return async (id, change) => {
    const spec = specs.get(id);
    if (!spec) throw new Error(`\`redefine\`: no agent ${id} in gate.agents`);
    await orchestrator.unregister(id);
    const next = change.as ?? id;
    specs.set(next, spec);
    orchestrator.register(probeAgent(next, spec, log, change));
    // Registered while running, the agent starts on its own: let it come up before the next call.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
}
