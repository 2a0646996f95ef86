import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type Connector,
  type StatusSnapshot,
  type StatusSource,
  toolAvailability,
} from '@patchbay/connector';
import {
  type Envelope,
  type ErrorType,
  failure,
  PatchbayError,
  redactString,
  renderEnvelopeForModel,
  success,
  toEnvelope,
} from '@patchbay/envelope';
import {
  type Agent,
  type AgentTool,
  createRedactingLogger,
  type Orchestrator,
  type SecretSource,
} from '@patchbay/orchestrator';
import {
  buildSystemPrompt,
  captureStatus,
  connectorStatusWire,
  exposedTools,
  isMetaTool,
  type JsonValue,
  type LiveVerificationOptions,
  refreshConnectorStatusToolName,
  renderTurnContext,
  stableStringify,
} from '@patchbay/protocol';
import type { Logger } from 'pino';
import { agentToolToMcp, toMcpTool } from './mcp-tool.js';

/** What a gateway request handler knows about the request: HTTP headers, auth info, session id, `_meta`. */
export type McpGatewayRequest = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Settings of {@link createMcpGateway}. Give exactly one of `subject` and `resolveSubject`. */
export interface McpGatewayOptions {
  /**
   * Every call goes through its `execute`: status, scopes, schema, approval and timeout gates. With
   * `listTools` and `listAgents` the gateway also serves the tools of its other agents (wrapped
   * functions, MCP servers) whose agent is up; `health` answers for agents without a connection state.
   */
  orchestrator: Pick<Orchestrator, 'execute'> &
    Partial<Pick<Orchestrator, 'listTools' | 'listAgents' | 'getTool' | 'health'>>;
  /**
   * The connectors whose tools the gateway serves (the same ones the orchestrator serves); also the
   * connectors the `requires` of other tools can name.
   */
  connectors: readonly Connector[];
  /** Per-subject connections, admin policy and rate limits; read fresh for every list and recheck. */
  statusSource: StatusSource;
  /** The one subject every request is made for (a local user, as in `patchbay mcp`). */
  subject?: string;
  /** Derives the subject from each request (e.g. from `authInfo` or a header) for shared HTTP gateways. */
  resolveSubject?: (request: McpGatewayRequest) => string | Promise<string>;
  /** How often the exposed tool set is checked for changes, in ms. Default 5000; 0 turns the timer off. */
  refreshIntervalMs?: number;
  /** Server name announced at initialization. Default `patchbay`. */
  name?: string;
  /** Server version announced at initialization. Default `0.0.0`. */
  version?: string;
  /** Instructions announced at initialization; by default the protocol's status and error rules. `false` for none. */
  instructions?: string | false;
  /** Checks stored credentials live when capturing status (TTL-cached). */
  verify?: LiveVerificationOptions;
  /** A pino logger; silent by default. On stdio, it must not write to stdout. */
  logger?: Logger;
  /**
   * Values that must never reach the logs (expanded environment values, a gateway token), read at
   * every log line. Stored credentials the gateway reads from the status source are added on their own.
   */
  secrets?: SecretSource;
  /** Clock for status capture, for tests. */
  now?: () => Date;
}

/** A status-aware MCP server for one session (one transport). */
export interface McpGateway {
  /** The SDK server; connect it to a transport (or use {@link McpGateway.connect}). */
  readonly server: Server;
  /** Connects the server to a transport. */
  connect(transport: Transport): Promise<void>;
  /**
   * Captures status again for every subject seen and sends `notifications/tools/list_changed` when a
   * subject's exposed tools changed (and `resources/updated` to subscribers when the status did).
   * Resolves to whether the tool list changed.
   */
  recheck(): Promise<boolean>;
  /** Resolves once no tool call is running and every answer went to the transport: close after it on end of input. */
  settled(): Promise<void>;
  /** Stops the recheck timer and closes the server. */
  close(): Promise<void>;
}

/** URI of the resource holding the current per-turn context block. */
export const connectorStatusResourceUri = 'patchbay://connector-status';
/** Name of the prompt returning the current per-turn context block. */
export const connectorStatusPromptName = 'connector_status';
/** `_meta` key carrying a caller's correlation id on `tools/call` (and echoed on the result). */
export const correlationIdMetaKey = 'patchbay/correlation_id';

/** Outcomes of another agent's tool that mean its agent may be down: recheck right after. */
const agentDownOutcomes: ReadonlySet<ErrorType> = new Set(['tool_unavailable', 'network_error']);

/** Outcomes that mean the subject's status changed (or the host's list is stale): recheck right after. */
const statusOutcomes: ReadonlySet<ErrorType> = new Set([
  'rate_limited',
  'invalid_credentials',
  'connector_not_configured',
  'permission_denied',
  'disabled_by_admin',
]);

const gatewayIdentity = [
  'Your tools come from Patchbay, which serves only the connectors and tools this user can use right now.',
  'Over MCP you do not get a <connector_status> block with every message: read the',
  `${connectorStatusResourceUri} resource when your host offers it, or call ${refreshConnectorStatusToolName},`,
  'whenever you need to know what is connected, what could be set up, or why a tool is missing.',
  'The tool list itself changes when the status does.',
].join('\n');

/** The default instructions: who serves the tools, how to get the status, and the protocol's rules. */
function defaultInstructions(): string {
  return buildSystemPrompt({
    identity: gatewayIdentity,
    // Blocks that assume a fresh block every turn are left out: MCP hosts do not attach one.
    blocks: ['connector_protocol', 'capability_protocol', 'error_handling'],
  });
}

/** The MCP result of an envelope: the envelope as structured content, its model rendering as text. */
function toCallToolResult(envelope: Envelope): CallToolResult {
  const correlationId = envelope.meta?.correlation_id;
  return {
    content: [{ type: 'text', text: renderEnvelopeForModel(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.ok,
    ...(correlationId === undefined ? {} : { _meta: { [correlationIdMetaKey]: correlationId } }),
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Creates a status-aware MCP gateway: `tools/list` answers the tools exposed for the subject now
 * (connected connectors with granted scopes and satisfied `requires`, the orchestrator's other tools
 * whose agent is up and whose `requires` are met, plus `refresh_connector_status`),
 * `tools/call` goes through the orchestrator and answers with the envelope, and the host hears
 * `notifications/tools/list_changed` when the subject's status changes the list. Connectors disabled
 * by an admin appear in no list, resource or prompt. One gateway serves one session; create one per
 * HTTP session.
 */
export function createMcpGateway(options: McpGatewayOptions): McpGateway {
  if ((options.subject === undefined) === (options.resolveSubject === undefined)) {
    throw new PatchbayError(
      'invalid_gateway_options',
      'createMcpGateway needs exactly one of "subject" and "resolveSubject"',
    );
  }
  if (options.subject !== undefined && options.subject.trim() === '') {
    throw new PatchbayError('invalid_gateway_options', 'createMcpGateway: "subject" must not be empty');
  }
  const { orchestrator, connectors } = options;
  const intervalMs = options.refreshIntervalMs ?? 5_000;
  const credentials = new CredentialValues();
  const statusSource = credentials.watch(options.statusSource);
  const configured = options.secrets;
  const log = createRedactingLogger({
    logger: options.logger,
    bindings: { component: 'mcp-gateway' },
    secrets: () => [...valuesOf(configured), ...credentials.values()],
  });
  const servedTools = new Set(connectors.flatMap((connector) => connector.tools.map((tool) => tool.name)));
  const instructions =
    options.instructions === false ? undefined : (options.instructions ?? defaultInstructions());

  const server = new Server(
    { name: options.name ?? 'patchbay', version: options.version ?? '0.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: false },
        prompts: { listChanged: false },
      },
      ...(instructions === undefined ? {} : { instructions }),
    },
  );

  /** Per subject: the tool names the host last heard of, and the status it last saw. */
  const knownTools = new Map<string, string>();
  const knownStatus = new Map<string, string>();
  let subscribed = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  async function subjectOf(request: McpGatewayRequest): Promise<string> {
    if (options.subject !== undefined) return options.subject;
    let subject: string;
    try {
      subject = await options.resolveSubject!(request);
    } catch (error) {
      log.warn({ error: redactString(errorMessage(error)) }, 'could not resolve the subject of a request');
      throw new McpError(ErrorCode.InvalidRequest, 'Patchbay could not tell whom this request is for.');
    }
    if (typeof subject !== 'string' || subject.trim() === '') {
      throw new McpError(ErrorCode.InvalidRequest, 'Patchbay could not tell whom this request is for.');
    }
    return subject;
  }

  function capture(subject: string): Promise<StatusSnapshot> {
    return captureStatus({
      connectors,
      source: statusSource,
      subject,
      ...(options.now ? { now: options.now } : {}),
      ...(options.verify ? { verify: options.verify } : {}),
    });
  }

  // Whole definitions, so an upstream server changing a tool's schema or annotations is news too.
  const toolsKey = (tools: readonly McpTool[]) => JSON.stringify(tools);
  const statusKey = (snapshot: StatusSnapshot) =>
    stableStringify(connectorStatusWire(snapshot, { connectors }) as JsonValue);

  function trackedSubjects(): string[] {
    const subjects = new Set([...knownTools.keys(), ...knownStatus.keys()]);
    if (options.subject !== undefined) subjects.add(options.subject);
    return [...subjects];
  }

  async function notify(notification: ServerNotification, related?: McpGatewayRequest): Promise<void> {
    try {
      // Related to a request, the notification rides on that request's response stream (HTTP).
      if (related) await related.sendNotification(notification);
      else await server.notification(notification);
    } catch (error) {
      log.debug(
        { error: redactString(errorMessage(error)), method: notification.method },
        'notification not sent',
      );
    }
  }

  /** Tools of the orchestrator's other agents (functions, MCP servers), each with the agent serving it. */
  function agentTools(): { tool: AgentTool; agent: Agent }[] {
    if (!orchestrator.listTools || !orchestrator.listAgents) return [];
    const routed = new Map<string, AgentTool>();
    for (const tool of orchestrator.listTools()) {
      // Connector tools follow the exposure rule above; connectors not given here are not served.
      if (tool.connectorId !== undefined || servedTools.has(tool.name)) continue;
      if (tool.name === refreshConnectorStatusToolName) continue;
      routed.set(tool.name, tool);
    }
    if (routed.size === 0) return [];
    // The registry routes the definition object an agent's manifest returned; of two agents declaring
    // a name, that one owns it. Agents building fresh objects per manifest fall back to the first declarer.
    const owners = new Map<string, Agent>();
    const declarers = new Map<string, Agent>();
    for (const agent of orchestrator.listAgents()) {
      let declared: readonly AgentTool[];
      try {
        declared = agent.manifest().tools;
      } catch {
        continue;
      }
      for (const tool of declared) {
        const current = routed.get(tool.name);
        if (current === undefined) continue;
        if (current === tool) owners.set(tool.name, agent);
        else if (!declarers.has(tool.name)) declarers.set(tool.name, agent);
      }
    }
    return [...routed.values()].flatMap((tool) => {
      const agent = owners.get(tool.name) ?? declarers.get(tool.name);
      return agent ? [{ tool, agent }] : [];
    });
  }

  /** Whether an agent answers now: an MCP agent by its observed connection (no ping), others by health. */
  async function agentUp(agent: Agent): Promise<boolean> {
    const observed = agent.observedHealth?.();
    if (observed) return observed.status === 'up';
    if (!orchestrator.health) return true;
    try {
      return (await orchestrator.health(agent.id)).status === 'up';
    } catch {
      return false;
    }
  }

  /** What `tools/list` answers for a snapshot: every tool the subject can run now, by name, then the meta-tool. */
  async function listedTools(snapshot: StatusSnapshot): Promise<McpTool[]> {
    const exposed = exposedTools(snapshot, connectors);
    const candidates = agentTools().filter(({ tool }) => toolAvailability(tool, snapshot).available);
    const probes = new Map<Agent, Promise<boolean>>();
    const up = await Promise.all(
      candidates.map(({ agent }) => {
        let probe = probes.get(agent);
        if (!probe) {
          probe = agentUp(agent);
          probes.set(agent, probe);
        }
        return probe;
      }),
    );
    const tools = [
      ...exposed.filter((tool) => !isMetaTool(tool)).map(toMcpTool),
      ...candidates.filter((_, index) => up[index]).map(({ tool }) => agentToolToMcp(tool)),
    ].sort(byName);
    return [...tools, ...exposed.filter(isMetaTool).map(toMcpTool)];
  }

  /** Agents whose tool-list changes this gateway listens to, with the unsubscribe function. */
  const watched = new Map<Agent, () => void>();
  let closed = false;

  /** Follows the orchestrator's agents: an MCP server adding or dropping a tool is a list change. */
  function watchAgents(): void {
    if (closed || !orchestrator.listAgents) return;
    const current = new Set(orchestrator.listAgents());
    for (const [agent, unsubscribe] of watched) {
      if (current.has(agent)) continue;
      unsubscribe();
      watched.delete(agent);
    }
    for (const agent of current) {
      if (watched.has(agent) || !agent.onToolsChanged) continue;
      // The orchestrator re-indexes in its own listener, registered first; this recheck runs after it.
      watched.set(
        agent,
        agent.onToolsChanged(() => void recheck()),
      );
    }
  }

  function unwatchAgents(): void {
    closed = true;
    for (const unsubscribe of watched.values()) unsubscribe();
    watched.clear();
  }

  async function check(related?: McpGatewayRequest): Promise<boolean> {
    let toolsChanged = false;
    let statusChanged = false;
    watchAgents();
    for (const subject of trackedSubjects()) {
      let snapshot: StatusSnapshot;
      let tools: string;
      try {
        snapshot = await capture(subject);
        tools = toolsKey(await listedTools(snapshot));
      } catch (error) {
        log.warn({ subject, error: redactString(errorMessage(error)) }, 'status recheck failed');
        continue;
      }
      const previousTools = knownTools.get(subject);
      if (previousTools !== undefined && previousTools !== tools) toolsChanged = true;
      knownTools.set(subject, tools);
      const status = statusKey(snapshot);
      const previousStatus = knownStatus.get(subject);
      if (previousStatus !== undefined && previousStatus !== status) statusChanged = true;
      knownStatus.set(subject, status);
    }
    if (toolsChanged) {
      log.info('exposed tools changed; sending tools/list_changed');
      await notify({ method: 'notifications/tools/list_changed' }, related);
    }
    if (statusChanged && subscribed) {
      await notify(
        { method: 'notifications/resources/updated', params: { uri: connectorStatusResourceUri } },
        related,
      );
    }
    return toolsChanged;
  }

  /** Rechecks one at a time, so a check started after a status write always sees it. */
  function recheck(related?: McpGatewayRequest): Promise<boolean> {
    const run = queue.then(() => check(related));
    queue = run.catch(() => false);
    return run;
  }

  function startTimer(): void {
    if (intervalMs <= 0 || timer) return;
    timer = setInterval(() => void recheck(), intervalMs);
    // The transport keeps the process alive, not the status poll.
    timer.unref?.();
  }

  function stopTimer(): void {
    if (timer) clearInterval(timer);
    timer = undefined;
  }

  server.oninitialized = () => {
    startTimer();
    watchAgents();
  };
  server.onclose = () => {
    stopTimer();
    unwatchAgents();
  };

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const subject = await subjectOf(extra);
    watchAgents();
    const snapshot = await capture(subject);
    const tools = await listedTools(snapshot);
    knownTools.set(subject, toolsKey(tools));
    knownStatus.set(subject, statusKey(snapshot));
    return { tools };
  });

  /** Whether a name is one of the orchestrator's other tools (a function, an MCP server's tool). */
  function isAgentTool(name: string): boolean {
    if (name === refreshConnectorStatusToolName) return false;
    const tool = orchestrator.getTool
      ? orchestrator.getTool(name)
      : orchestrator.listTools?.().find((candidate) => candidate.name === name);
    return tool !== undefined && tool.connectorId === undefined;
  }

  async function refreshStatus(subject: string, correlationId: string | undefined): Promise<Envelope> {
    const started = performance.now();
    const meta = {
      ...(correlationId === undefined ? {} : { correlation_id: correlationId }),
      tool: refreshConnectorStatusToolName,
    };
    try {
      const snapshot = await capture(subject);
      return {
        ...success({
          captured_at: snapshot.capturedAt,
          connector_status: connectorStatusWire(snapshot, { connectors }),
        }),
        meta: { ...meta, duration_ms: Math.round((performance.now() - started) * 1000) / 1000 },
      };
    } catch (error) {
      log.error({ subject, error: redactString(errorMessage(error)) }, 'status capture failed');
      return { ...toEnvelope(error, { tool: refreshConnectorStatusToolName }), meta };
    }
  }

  const running = new Set<Promise<unknown>>();

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const call = callTool(request, extra);
    running.add(call);
    return call.finally(() => running.delete(call));
  });

  async function callTool(request: CallToolRequest, extra: McpGatewayRequest): Promise<CallToolResult> {
    const subject = await subjectOf(extra);
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const given = request.params._meta?.[correlationIdMetaKey];
    const correlationId = typeof given === 'string' && given !== '' ? given : undefined;
    let envelope: Envelope;
    if (name === refreshConnectorStatusToolName) {
      envelope = await refreshStatus(subject, correlationId);
      await recheck(extra);
    } else if (!servedTools.has(name) && !isAgentTool(name)) {
      // Connector tools of connectors not given to this gateway are not part of it.
      envelope = {
        ...failure('tool_unavailable', { userMessage: `There is no tool named ${name} here.` }),
        meta: { ...(correlationId === undefined ? {} : { correlation_id: correlationId }), tool: name },
      };
    } else {
      envelope = await orchestrator.execute(name, args, {
        subject,
        signal: extra.signal,
        ...(correlationId === undefined ? {} : { correlationId }),
      });
      // The orchestrator wrote the new state back; hosts should re-list before the model's next step.
      if (!envelope.ok && statusOutcomes.has(envelope.error_type)) await recheck(extra);
      // An MCP server that dropped mid-call leaves the list at once, not at the next interval.
      else if (!envelope.ok && agentDownOutcomes.has(envelope.error_type) && !servedTools.has(name))
        await recheck(extra);
    }
    return toCallToolResult(envelope);
  }

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: connectorStatusResourceUri,
        name: 'connector-status',
        title: 'Connector status',
        description:
          'The current time and connector status for this user, as the per-turn context block a model reads.',
        mimeType: 'text/plain',
      },
    ],
  }));

  async function currentContext(request: McpGatewayRequest): Promise<string> {
    const subject = await subjectOf(request);
    const snapshot = await capture(subject);
    knownStatus.set(subject, statusKey(snapshot));
    return renderTurnContext(snapshot, { connectors });
  }

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    if (request.params.uri !== connectorStatusResourceUri) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${request.params.uri}`);
    }
    return {
      contents: [
        { uri: connectorStatusResourceUri, mimeType: 'text/plain', text: await currentContext(extra) },
      ],
    };
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    if (request.params.uri !== connectorStatusResourceUri) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${request.params.uri}`);
    }
    subscribed = true;
    const subject = await subjectOf(extra);
    if (!knownStatus.has(subject)) knownStatus.set(subject, statusKey(await capture(subject)));
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async () => {
    subscribed = false;
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: connectorStatusPromptName,
        title: 'Connector status',
        description:
          'Attaches the current time and connector status for this user to the conversation, as the per-turn context block.',
      },
    ],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    if (request.params.name !== connectorStatusPromptName) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}`);
    }
    return {
      description: 'Current connector status',
      messages: [{ role: 'user', content: { type: 'text', text: await currentContext(extra) } }],
    };
  });

  return {
    server,
    connect: (transport) => server.connect(transport),
    recheck: () => recheck(),
    async settled() {
      while (running.size > 0) {
        await Promise.allSettled([...running]);
        // The SDK sends the answer a few promise steps after the handler settles; closing earlier drops it.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async close() {
      stopTimer();
      unwatchAgents();
      await server.close();
    },
  };
}

function valuesOf(source: SecretSource | undefined): Iterable<string> {
  return typeof source === 'function' ? source() : (source ?? []);
}

/**
 * The credential values of the connections the gateway has read, latest per subject, so a log line
 * that echoes one (an error from a database driver, a service) has it removed.
 */
class CredentialValues {
  private readonly bySubject = new Map<string, string[]>();

  /** The status source, recording the credentials of every state it loads. */
  watch(source: StatusSource): StatusSource {
    return {
      load: async (subject) => {
        const state = await source.load(subject);
        this.bySubject.set(
          subject,
          state.connections.flatMap((connection) =>
            Object.values(connection.credentials ?? {}).filter((value) => typeof value === 'string'),
          ),
        );
        return state;
      },
      markRateLimited: (subject, connectorId, until) => source.markRateLimited(subject, connectorId, until),
      markInvalidCredentials: (subject, connectorId, error) =>
        source.markInvalidCredentials(subject, connectorId, error),
    };
  }

  /** Every recorded value. */
  values(): string[] {
    return [...this.bySubject.values()].flat();
  }
}
