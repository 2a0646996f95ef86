import type { AnyTool, Connector } from '@patchbay/connector';
import { toEnvelope } from '@patchbay/envelope';
import { invokeTool } from '@patchbay/helpers';
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
 * A tool whose input was parsed by the gate's validation already: `invokeTool` runs it (execute,
 * envelope, redaction) without parsing the same arguments with the same schema again.
 */
function withParsedInput(tool: AnyTool): AnyTool {
  const parsedAlready = {
    safeParseAsync: async (value: unknown) => ({ success: true as const, data: value }),
  } as unknown as AnyTool['input'];
  return { ...tool, input: parsedAlready };
}

/**
 * Serves a connector's tools as an agent (id `connector:<id>`). Arguments are checked with the
 * tool's zod schema; calls run through `invokeTool` with the subject's credentials, which the
 * orchestrator supplies after its status gate. Trusted: only `destructive` tools need approval.
 * A tool's input is parsed once per call: `validate` hands the parsed value on, and `execute` runs
 * exactly that value without parsing it again (any other value, e.g. from a schema with async
 * refinements that `validate` cannot run, is parsed by `invokeTool` as usual).
 */
export function connectorAgent(connector: Connector): Agent {
  const tools = new Map(connector.tools.map((tool) => [tool.name, tool]));
  const parsedTools = new Map(connector.tools.map((tool) => [tool.name, withParsedInput(tool)]));
  const agentTools = connector.tools.map((tool) => agentToolOf(tool, connector.id));
  // Values `validate` produced (fresh objects, reachable from nowhere else): safe to run unparsed.
  const parsedValues = new WeakSet<object>();
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
        if (!parsed.success) return { ok: false, envelope: toEnvelope(parsed.error, context) };
        const { data } = parsed;
        // Only a value the parse made is trusted unparsed: the caller's own object could change
        // while the gate awaits its stores, and would then run unchecked.
        if (typeof data !== 'object' || data === null || data === args) return { ok: true, value: args };
        parsedValues.add(data);
        return { ok: true, value: data };
      } catch {
        // Schemas with async refinements cannot be checked synchronously; invokeTool checks them.
        return { ok: true, value: args };
      }
    },
    async execute(toolName, args, context) {
      const tool = tools.get(toolName);
      if (!tool) return toEnvelope(null, { connector: connector.id, tool: toolName });
      const parsed = typeof args === 'object' && args !== null && parsedValues.delete(args);
      return invokeTool(parsed ? parsedTools.get(toolName)! : tool, args, {
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
