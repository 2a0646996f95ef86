import { type AnyTool, type Connector, invokeTool } from '@patchbay/connector';
import { toEnvelope } from '@patchbay/envelope';
import type { Agent, AgentTool, ToolAnnotations } from './agent.js';

/** MCP-style hints derived from a connector tool's declared effect. */
export function annotationsForEffect(effect: AnyTool['effect']): ToolAnnotations {
  if (effect === 'read') return { readOnlyHint: true, destructiveHint: false };
  if (effect === 'destructive') return { readOnlyHint: false, destructiveHint: true };
  return { readOnlyHint: false, destructiveHint: false };
}

/** The registry's view of a `defineTool` tool. */
export function agentToolOf(tool: AnyTool, connectorId?: string): AgentTool {
  return {
    name: tool.name,
    description: tool.description,
    inputJsonSchema: tool.inputJsonSchema,
    effect: tool.effect,
    connectorId: connectorId ?? tool.connectorId,
    requiredScopes: [...tool.requiredScopes],
    impliedScopes: tool.impliedScopes,
    requires: [...tool.requires],
    timeoutMs: tool.timeoutMs,
    ...(tool.examples ? { examples: [...tool.examples] } : {}),
    ...(tool.category ? { category: tool.category } : {}),
    annotations: annotationsForEffect(tool.effect),
  };
}

/**
 * Serves a connector's tools as an agent (id `connector:<id>`). Arguments are checked with the
 * tool's zod schema; calls run through `invokeTool` with the subject's credentials, which the
 * orchestrator supplies after its status gate. Trusted: only `destructive` tools need approval.
 */
export function connectorAgent(connector: Connector): Agent {
  const tools = new Map(connector.tools.map((tool) => [tool.name, tool]));
  const agentTools = connector.tools.map((tool) => agentToolOf(tool, connector.id));
  return {
    id: `connector:${connector.id}`,
    trusted: true,
    async initialize() {},
    async shutdown() {},
    async health() {
      return { status: 'up' };
    },
    manifest() {
      return {
        id: `connector:${connector.id}`,
        kind: 'connector',
        name: connector.name,
        capabilities: connector.capabilities,
        tools: agentTools,
      };
    },
    validate(toolName, args) {
      const tool = tools.get(toolName);
      if (!tool) return { ok: true, value: args };
      const context = { connector: connector.id, tool: tool.name, questions: tool.questions };
      try {
        const parsed = tool.input.safeParse(args ?? {}, { reportInput: true });
        // The raw arguments go on: invokeTool is the one place that parses (and transforms) them.
        return parsed.success
          ? { ok: true, value: args }
          : { ok: false, envelope: toEnvelope(parsed.error, context) };
      } catch {
        // Schemas with async refinements cannot be checked synchronously; invokeTool checks them.
        return { ok: true, value: args };
      }
    },
    async execute(toolName, args, context) {
      const tool = tools.get(toolName);
      if (!tool) return toEnvelope(null, { connector: connector.id, tool: toolName });
      return invokeTool(tool, args, {
        subject: context.subject,
        credentials: context.credentials ?? {},
        scopes: context.scopes ?? [],
        signal: context.signal,
        correlationId: context.correlationId,
        setupUrl: connector.setupUrl,
      });
    },
  };
}
