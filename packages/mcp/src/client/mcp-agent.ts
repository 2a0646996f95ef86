import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  createRedactor,
  type Envelope,
  failure,
  PatchbayError,
  type Redactor,
  redactValue,
} from '@patchbay/envelope';
import type { Agent, AgentCallContext, AgentHealth, AgentManifest } from '@patchbay/orchestrator';
import { type BackoffSettings, backoffDelay, defaultBackoff } from './backoff.js';
import {
  classifyCallError,
  envelopeFromError,
  envelopeFromResult,
  neverReachedServer,
} from './call-result.js';
import type { McpServerConfig } from './config.js';
import { type McpAgentTool, toAgentTool } from './tool-mapping.js';

/** Tuning of an MCP agent's connection handling; the defaults suit production. */
export interface McpAgentOptions {
  /** Reconnect backoff; default 0.5 s doubling to 30 s. */
  reconnect?: Partial<BackoffSettings>;
  /** How often a live connection is pinged, in milliseconds (default 3000). */
  healthCheckIntervalMs?: number;
  /** How long a ping may take, in milliseconds (default 1000). */
  healthCheckTimeoutMs?: number;
  /** Consecutive failed pings before the server is taken down (default 2). */
  failedChecksBeforeDown?: number;
  /** Time allowed to start the server and finish `initialize` + `tools/list` (default 15000). */
  connectTimeoutMs?: number;
  /** Pause before the one retry of a call that failed on the connection or timed out (default 300). */
  retryDelayMs?: number;
  /** Throw `agent_init_failed` from `initialize` instead of staying down and reconnecting (default false). */
  throwOnStartFailure?: boolean;
  /** What happens to a stdio child's stderr (default `ignore`: it may print anything, secrets included). */
  stderr?: 'ignore' | 'inherit';
  /**
   * Largest message a stdio server may send, in bytes (default 10 MiB, the MCP SDK's limit). A
   * bigger one makes the SDK close the connection, which kills the child; the call then answers
   * `upstream_error` (result too large) and is not retried, since a retry would get the same.
   */
  maxMessageBytes?: number;
}

/** The MCP SDK's default stdio read limit (`STDIO_DEFAULT_MAX_BUFFER_SIZE`). */
const defaultMaxMessageBytes = 10 * 1024 * 1024;
// What the SDK's ReadBuffer throws (through `onerror`) before it closes a connection over the limit.
const oversizedMessage = /ReadBuffer exceeded maximum size/;

/** An {@link Agent} backed by one MCP server. */
export interface McpAgent extends Agent {
  readonly kind: 'mcp';
  /** Server name from the config; also the agent id. */
  readonly id: string;
  /** Whether the orchestrator should start this server with the others. */
  readonly autoStart: boolean;
  /** The server's `trust` setting; every tool carries it too. */
  readonly trusted: boolean;
  /** Connection state as last observed, without probing (use `health()` for a live check). */
  readonly status: AgentHealth['status'];
  observedHealth(): AgentHealth;
  /** Process id of a running stdio child, for operators; undefined for HTTP or when down. */
  readonly pid: number | undefined;
  manifest(): AgentManifest & { tools: McpAgentTool[] };
  onToolsChanged(listener: () => void): () => void;
}

type State = 'stopped' | 'starting' | 'up' | 'down';

const clientInfo = { name: 'patchbay-orchestrator', version: '0.1.0' };
// Declared variables with names like these hold credentials; their values never appear in an
// envelope even if the server echoes them. Other variables (paths, flags) are left readable.
const secretLikeName = /token|secret|key|password|passwd|auth|credential|cookie|session|pat$/i;
// Connections that stayed up this long reset the backoff; shorter ones mean a crash loop.
const stableConnectionMs = 10_000;

function delay(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class McpServerAgent implements McpAgent {
  readonly kind = 'mcp' as const;
  readonly id: string;
  readonly autoStart: boolean;
  readonly trusted: boolean;

  private state: State = 'stopped';
  private detail: string | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private connectingClient: Client | undefined;
  /** Bumped on every connection and on shutdown, so callbacks of an old connection do nothing. */
  private generation = 0;
  private tools: McpAgentTool[] = [];
  private toolsByName = new Map<string, McpAgentTool>();
  private toolsSignature = '[]';
  private readonly listeners = new Set<() => void>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private reconnectAttempt = 0;
  /** Epoch milliseconds of the scheduled reconnect, while one is scheduled. */
  private reconnectAt: number | undefined;
  private connectedAt = 0;
  private failedChecks = 0;
  /** Calls waiting for a server's answer: a big answer delays pings behind it on the same pipe. */
  private callsInFlight = 0;
  /** Generation whose connection the SDK closed because a message was over `maxMessageBytes`. */
  private oversizedGeneration: number | undefined;
  private probing = false;
  private discovering = false;
  private discoverAgain = false;
  private starting: Promise<void> | undefined;
  private readonly secrets: string[];
  private readonly redactor: Redactor;
  private readonly backoff: BackoffSettings;

  constructor(
    private readonly config: McpServerConfig,
    private readonly options: McpAgentOptions,
  ) {
    this.id = config.name;
    this.autoStart = config.autoStart;
    this.trusted = config.trust;
    this.backoff = { ...defaultBackoff, ...options.reconnect };
    this.secrets =
      config.transport === 'stdio'
        ? Object.entries(config.env)
            .filter(([key]) => secretLikeName.test(key))
            .map(([, value]) => value)
        : Object.values(config.headers);
    this.redactor = createRedactor(this.secrets);
  }

  get status(): AgentHealth['status'] {
    return this.state;
  }

  observedHealth(): AgentHealth {
    if (this.state !== 'down') return { status: this.state };
    const retryAt = this.reconnectAt === undefined ? undefined : new Date(this.reconnectAt).toISOString();
    return { status: 'down', detail: this.detail, ...(retryAt ? { retryAt } : {}) };
  }

  get pid(): number | undefined {
    return this.state === 'up' && this.transport instanceof StdioClientTransport
      ? (this.transport.pid ?? undefined)
      : undefined;
  }

  manifest(): AgentManifest & { tools: McpAgentTool[] } {
    return { id: this.id, kind: 'mcp', tools: [...this.tools] };
  }

  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Connects and discovers the tools. When the server cannot be reached (after one retry) the
   * agent stays registered as `down` and keeps reconnecting in the background, so a server that
   * comes up later joins without a restart; `health()` says why it is down. With
   * `throwOnStartFailure` it throws `agent_init_failed` instead and does not retry on its own.
   */
  initialize(): Promise<void> {
    if (this.state === 'up') return Promise.resolve();
    if (this.starting) return this.starting;
    this.clearReconnect();
    this.state = 'starting';
    this.starting = this.connectWithRetry()
      .catch((error: unknown) => {
        if (this.isStopped()) throw error;
        const detail = `The MCP server "${this.id}" could not be started.`;
        if (this.options.throwOnStartFailure) {
          this.state = 'down';
          this.detail = detail;
          throw new PatchbayError('agent_init_failed', detail, { cause: error });
        }
        this.markDown(detail);
      })
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  async shutdown(): Promise<void> {
    this.state = 'stopped';
    this.detail = undefined;
    this.generation += 1;
    this.clearReconnect();
    this.stopHealthChecks();
    const clients = [this.client, this.connectingClient];
    this.client = undefined;
    this.transport = undefined;
    this.connectingClient = undefined;
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
  }

  async health(): Promise<AgentHealth> {
    if (this.state !== 'up' || !this.client) {
      return this.state === 'down' ? { status: 'down', detail: this.detail } : { status: this.state };
    }
    const started = performance.now();
    try {
      await this.client.ping({ timeout: Math.min(1000, this.options.healthCheckTimeoutMs ?? 1000) });
      return { status: 'up', latencyMs: Math.round(performance.now() - started) };
    } catch {
      this.recordFailedCheck();
      if (this.state !== 'up') return { status: 'down', detail: this.detail };
      return { status: 'down', detail: `The MCP server "${this.id}" did not answer a ping in time.` };
    }
  }

  async execute(toolName: string, args: unknown, context: AgentCallContext): Promise<Envelope> {
    const finish = (envelope: Envelope) => this.finish(envelope, toolName, context.correlationId);
    const tool = this.toolsByName.get(toolName);
    if (!tool) {
      return finish(
        failure('tool_unavailable', {
          userMessage: `The MCP server "${this.id}" has no tool named "${toolName}".`,
        }),
      );
    }
    if (args !== undefined && args !== null && !isRecord(args)) {
      return finish(
        failure('invalid_arguments', {
          issues: [{ path: '(input)', message: 'Arguments must be an object.' }],
        }),
      );
    }
    // One budget for every attempt: a retry gets what the first attempt left, not a fresh timeout.
    const deadline = performance.now() + this.config.timeout;
    for (let attempt = 0; ; attempt += 1) {
      const client = this.state === 'up' ? this.client : undefined;
      if (!client) return finish(this.unavailable());
      const generation = this.generation;
      // The SDK adds an abort listener to the signal it is given and never removes it, so a
      // long-lived caller signal would collect one per call; it gets a per-call signal instead.
      const callController = new AbortController();
      const forwardAbort = () => callController.abort(context.signal.reason);
      if (context.signal.aborted) forwardAbort();
      else context.signal.addEventListener('abort', forwardAbort, { once: true });
      this.callsInFlight += 1;
      try {
        const result = await client.callTool(
          {
            name: tool.mcpName,
            arguments: (args ?? {}) as Record<string, unknown>,
            _meta: { 'patchbay/correlation_id': context.correlationId },
          },
          CallToolResultSchema,
          {
            signal: callController.signal,
            timeout: Math.max(1, Math.round(deadline - performance.now())),
            ...(context.onProgress ? { onprogress: context.onProgress } : {}),
          },
        );
        // With CallToolResultSchema the SDK has already parsed the result into the current shape.
        return finish(envelopeFromResult(result as CallToolResult, this.id));
      } catch (error) {
        if (this.oversizedGeneration === generation) {
          // The SDK dropped the connection over the size of an answer; asking again gets the same.
          return finish(
            failure('upstream_error', {
              retryable: false,
              userMessage: `The MCP server "${this.id}" sent an answer larger than ${formatBytes(this.options.maxMessageBytes ?? defaultMaxMessageBytes)}, so its connection was reset. Ask for less at once (a narrower query or one page).`,
            }),
          );
        }
        const kind = classifyCallError(error, context.signal.aborted);
        if (kind === 'connection') void this.probe();
        // A call that may have reached the server is repeated only when the tool says repeating is harmless.
        const harmless =
          tool.annotations?.readOnlyHint === true ||
          tool.annotations?.idempotentHint === true ||
          neverReachedServer(error);
        const retryDelayMs = this.options.retryDelayMs ?? 300;
        const timeLeft = deadline - performance.now() > retryDelayMs;
        if (attempt === 0 && (kind === 'connection' || kind === 'timeout') && harmless && timeLeft) {
          await delay(retryDelayMs, context.signal);
          if (!context.signal.aborted) continue;
        }
        return finish(envelopeFromError(error, kind, this.id));
      } finally {
        this.callsInFlight -= 1;
        context.signal.removeEventListener('abort', forwardAbort);
      }
    }
  }

  /**
   * Adds the call's metadata and removes secrets. Error text comes from the server and is always
   * redacted; success data only when this server was given credentials, because scanning every
   * result costs more than the stdio round trip itself, and the orchestrator's gate already removes
   * token shapes from every result it relays.
   */
  private finish(envelope: Envelope, toolName: string, correlationId: string): Envelope {
    const withMeta: Envelope = {
      ...envelope,
      meta: { ...envelope.meta, tool: toolName, correlation_id: correlationId },
    };
    if (withMeta.ok && this.secrets.length === 0) return withMeta;
    return redactValue(withMeta, this.redactor);
  }

  private isStopped(): boolean {
    return this.state === 'stopped';
  }

  private unavailable(): Envelope {
    const reason =
      this.state === 'stopped'
        ? 'is stopped'
        : this.state === 'starting'
          ? 'is still starting'
          : 'is not reachable right now; it is reconnecting';
    return failure('tool_unavailable', {
      userMessage: `The MCP server "${this.id}" ${reason}.`,
      retryable: this.state !== 'stopped',
    });
  }

  private async connectWithRetry(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      if (this.isStopped()) throw error;
      // One more try after a short pause: a server that is still starting is common at boot.
      await delay(this.options.retryDelayMs ?? 300);
      if (this.isStopped()) throw error;
      await this.connect();
    }
  }

  private createTransport(): Transport {
    const config = this.config;
    if (config.transport === 'stdio') {
      // The SDK merges `env` over getDefaultEnvironment() (HOME, PATH, SHELL, TERM, USER, LOGNAME),
      // so the child sees those plus exactly what the config declares, never the parent's secrets.
      return new StdioClientTransport({
        command: config.command,
        args: config.args,
        env: { ...config.env },
        cwd: config.cwd,
        stderr: this.options.stderr ?? 'ignore',
        maxBufferSize: this.options.maxMessageBytes ?? defaultMaxMessageBytes,
      });
    }
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
    });
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    const transport = this.createTransport();
    const client = new Client(clientInfo, { capabilities: {} });
    this.connectingClient = client;
    client.onclose = () => this.handleClose(generation);
    // Transport errors (a failed SSE stream, a write after exit) surface as closes or failed pings;
    // only an oversized message is remembered, to tell the call why its connection went.
    client.onerror = (error) => {
      if (oversizedMessage.test(error.message)) this.oversizedGeneration = generation;
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.rediscover(generation));
    let tools: McpTool[];
    try {
      const timeout = this.options.connectTimeoutMs ?? 15_000;
      await client.connect(transport, { timeout });
      tools = await this.listAllTools(client, timeout);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    } finally {
      if (this.connectingClient === client) this.connectingClient = undefined;
    }
    if (generation !== this.generation || this.state === 'stopped') {
      await client.close().catch(() => undefined);
      throw new PatchbayError('agent_stopped', `The MCP server "${this.id}" was stopped while connecting.`);
    }
    this.client = client;
    this.transport = transport;
    this.state = 'up';
    this.detail = undefined;
    this.connectedAt = Date.now();
    this.failedChecks = 0;
    this.setTools(tools);
    this.startHealthChecks(generation);
  }

  private async listAllTools(client: Client, timeout: number): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    // A bound on pages guards against a server that keeps returning a cursor.
    for (let page = 0; page < 100; page += 1) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  private setTools(mcpTools: McpTool[]): void {
    // Task-only tools answer only task-augmented calls, which this client does not make: offering
    // them would promise a tool that always fails.
    const callable = mcpTools.filter((tool) => tool.execution?.taskSupport !== 'required');
    const mapped = callable.map((tool) => toAgentTool(tool, this.config, this.options.retryDelayMs ?? 300));
    const signature = JSON.stringify(mapped);
    if (signature === this.toolsSignature) return;
    this.tools = mapped;
    this.toolsByName = new Map(mapped.map((tool) => [tool.name, tool]));
    this.toolsSignature = signature;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's failure must not stop the others or the agent.
      }
    }
  }

  private async rediscover(generation: number): Promise<void> {
    if (this.discovering) {
      this.discoverAgain = true;
      return;
    }
    this.discovering = true;
    try {
      do {
        this.discoverAgain = false;
        const client = this.client;
        if (!client || generation !== this.generation) return;
        const tools = await this.listAllTools(client, this.config.timeout);
        if (generation === this.generation && this.state === 'up') this.setTools(tools);
      } while (this.discoverAgain);
    } catch {
      // The old list stays; a dead server is caught by the close event or the health checks.
    } finally {
      this.discovering = false;
    }
  }

  private handleClose(generation: number): void {
    if (generation !== this.generation || this.state !== 'up') return;
    this.markDown(`The MCP server "${this.id}" closed the connection.`);
  }

  private markDown(detail: string): void {
    if (this.state === 'stopped') return;
    if (this.state === 'up' && Date.now() - this.connectedAt >= stableConnectionMs) this.reconnectAttempt = 0;
    this.state = 'down';
    this.detail = detail;
    this.generation += 1;
    this.stopHealthChecks();
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    // Closing also kills a stdio child that stopped answering but did not exit.
    void client?.close().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.state === 'stopped' || this.reconnectTimer) return;
    const wait = backoffDelay(this.reconnectAttempt, this.backoff);
    this.reconnectAttempt += 1;
    this.reconnectAt = Date.now() + wait;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.reconnectAt = undefined;
      if (this.state !== 'down') return;
      this.connect().catch(() => {
        if (this.state === 'stopped') return;
        this.state = 'down';
        this.scheduleReconnect();
      });
    }, wait);
    this.reconnectTimer.unref();
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.reconnectAt = undefined;
  }

  private startHealthChecks(generation: number): void {
    this.stopHealthChecks();
    this.healthTimer = setInterval(() => {
      if (generation === this.generation) void this.probe();
    }, this.options.healthCheckIntervalMs ?? 3000);
    this.healthTimer.unref();
  }

  private stopHealthChecks(): void {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = undefined;
  }

  /** One ping; enough consecutive failures take the server down (HTTP has no close event to tell us). */
  private async probe(): Promise<void> {
    const client = this.client;
    if (this.probing || !client || this.state !== 'up') return;
    this.probing = true;
    try {
      await client.ping({ timeout: this.options.healthCheckTimeoutMs ?? 1000 });
      if (client === this.client) this.failedChecks = 0;
    } catch {
      if (client === this.client) this.recordFailedCheck();
    } finally {
      this.probing = false;
    }
  }

  private recordFailedCheck(): void {
    // A server sending a large answer answers pings only after it (one pipe, in order): a late
    // ping during a call is no sign of a dead server, and the call has its own time limit.
    if (this.callsInFlight > 0) return;
    this.failedChecks += 1;
    if (this.failedChecks >= (this.options.failedChecksBeforeDown ?? 2)) {
      this.markDown(`The MCP server "${this.id}" stopped answering health checks.`);
    }
  }
}

/**
 * Creates an agent for one MCP server (stdio child process or streamable HTTP). Tools are
 * discovered on connect and on `notifications/tools/list_changed`; a dropped server is noticed,
 * its tools answer `tool_unavailable`, and it is reconnected with backoff.
 */
export function createMcpAgent(config: McpServerConfig, options: McpAgentOptions = {}): McpAgent {
  return new McpServerAgent(config, options);
}

/** Creates one agent per configured server; start those with `autoStart` through the orchestrator. */
export function createMcpAgents(
  config: { servers: McpServerConfig[] },
  options: McpAgentOptions = {},
): McpAgent[] {
  return config.servers.map((server) => createMcpAgent(server, options));
}
