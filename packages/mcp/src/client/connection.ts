import { PatchbayError } from '@patchbay/envelope';
import type { AgentHealth } from '@patchbay/orchestrator';
import {
  type Client,
  type ClientCapabilities,
  loadClient,
  loadStdioClientTransport,
  loadStreamableHttpClient,
  type StdioClientTransport,
  type Transport,
} from '../sdk.js';
import { type BackoffSettings, backoffDelay, defaultBackoff } from './backoff.js';
import type { McpServerConfig } from './config.js';
import { useJsonLineReader } from './json-line-reader.js';
import type { McpAgentHealth, McpAgentOptions } from './mcp-agent-types.js';
import { type StoredOAuthProvider, setupCommandFor } from './oauth-provider.js';
import { readByShape } from './read-by-shape.js';
import { classifyStartFailure, type McpServerFailure } from './start-failure.js';

/** The MCP SDK's default stdio read limit (`STDIO_DEFAULT_MAX_BUFFER_SIZE`). */
export const defaultMaxMessageBytes = 10 * 1024 * 1024;
// What the SDK's ReadBuffer throws (through `onerror`) before it closes a connection over the limit.
const oversizedMessage = /ReadBuffer exceeded maximum size/;
const clientInfo = { name: 'patchbay-orchestrator', version: '0.1.0' };
// Connections that stayed up this long reset the backoff; shorter ones mean a crash loop.
const stableConnectionMs = 10_000;

type State = AgentHealth['status'];

/** What the agent adds to a connection: handlers on each new client, and what must succeed before it is up. */
export interface ConnectionHooks {
  /** Registers request and notification handlers on a client before it connects. */
  configure(client: Client, generation: number): void;
  /** Runs after `initialize` (tool discovery); a throw fails the connection attempt. Returns what to commit once up. */
  ready(client: Client, timeoutMs: number): Promise<() => void>;
}

/** Resolves after `milliseconds`, or at once when `signal` aborts. */
export function delay(milliseconds: number, signal?: AbortSignal): Promise<void> {
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

/**
 * The connection to one MCP server: starting it (one retry), noticing it went (close event or
 * failed pings), reconnecting with backoff, and what was last observed. Tools and calls live in
 * the agent; this holds only the client they use.
 */
export class McpConnection {
  private state: State = 'stopped';
  private detail: string | undefined;
  private reason: McpServerFailure | undefined;
  private current: Client | undefined;
  private transport: Transport | undefined;
  private connectingClient: Client | undefined;
  /** Bumped on every connection and on shutdown, so callbacks of an old connection do nothing. */
  private generationCount = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private reconnectAttempt = 0;
  /** Epoch milliseconds of the scheduled reconnect, while one is scheduled. */
  private reconnectAt: number | undefined;
  private connectedAt = 0;
  private failedChecks = 0;
  /** Calls waiting for a server's answer: a big answer delays pings behind it on the same pipe. */
  callsInFlight = 0;
  /** Generation whose connection the SDK closed because a message was over `maxMessageBytes`. */
  private oversizedGeneration: number | undefined;
  private probing = false;
  private starting: Promise<void> | undefined;
  private readonly backoff: BackoffSettings;

  constructor(
    private readonly config: McpServerConfig,
    private readonly options: McpAgentOptions,
    private readonly capabilities: ClientCapabilities,
    private readonly hooks: ConnectionHooks,
    /** Signs in to a streamable-HTTP server with the subject's stored OAuth tokens, when configured. */
    private readonly oauth?: StoredOAuthProvider,
  ) {
    this.backoff = { ...defaultBackoff, ...options.reconnect };
  }

  /** Whether the last 401 carried a `WWW-Authenticate` challenge (an OAuth server, not a bad static header). */
  private challenged = false;

  get status(): State {
    return this.state;
  }

  /** The live client while up. */
  get client(): Client | undefined {
    return this.state === 'up' ? this.current : undefined;
  }

  get generation(): number {
    return this.generationCount;
  }

  get pid(): number | undefined {
    // Only a stdio transport (made when the config says stdio) has a child process.
    return this.state === 'up' && this.config.transport === 'stdio'
      ? ((this.transport as StdioClientTransport | undefined)?.pid ?? undefined)
      : undefined;
  }

  /** True when the SDK dropped connection `generation` over the size of a message. */
  droppedForSize(generation: number): boolean {
    return this.oversizedGeneration === generation;
  }

  observedHealth(): McpAgentHealth {
    if (this.state !== 'down') return { status: this.state };
    const retryAt = this.reconnectAt === undefined ? undefined : new Date(this.reconnectAt).toISOString();
    const signIn =
      this.oauth !== undefined &&
      (this.reason === 'authorization_rejected' || this.reason === 'needs_authorization');
    return {
      status: 'down',
      detail: this.detail,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(retryAt ? { retryAt } : {}),
      ...(signIn ? { setupCommand: setupCommandFor(this.config.name) } : {}),
    };
  }

  /**
   * Takes the server down because its authorization failed during a call or a ping (a revoked
   * token whose refresh was refused): the agent's state says so until a new sign-in.
   */
  authorizationFailed(error: unknown): void {
    if (this.state !== 'up') return;
    const failure = classifyStartFailure(error, this.config);
    this.markDown(failure.detail, failure.reason);
  }

  /** See {@link McpAgent.initialize}. */
  start(): Promise<void> {
    if (this.state === 'up') return Promise.resolve();
    if (this.starting) return this.starting;
    this.clearReconnect();
    this.state = 'starting';
    this.starting = this.connectWithRetry()
      .catch((error: unknown) => {
        if (this.state === 'stopped') throw error;
        const failure = classifyStartFailure(error, this.config);
        if (this.options.throwOnStartFailure) {
          this.state = 'down';
          this.detail = failure.detail;
          this.reason = failure.reason;
          throw new PatchbayError('agent_init_failed', failure.detail, { cause: error });
        }
        this.markDown(failure.detail, failure.reason);
      })
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    this.detail = undefined;
    this.reason = undefined;
    this.generationCount += 1;
    this.clearReconnect();
    this.stopHealthChecks();
    const clients = [this.current, this.connectingClient];
    this.current = undefined;
    this.transport = undefined;
    this.connectingClient = undefined;
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
  }

  /** A live ping; failures count towards taking the server down. */
  async health(): Promise<McpAgentHealth> {
    const client = this.client;
    if (!client) return this.observedHealth();
    const started = performance.now();
    try {
      await client.ping({ timeout: Math.min(1000, this.options.healthCheckTimeoutMs ?? 1000) });
      return { status: 'up', latencyMs: Math.round(performance.now() - started) };
    } catch {
      this.recordFailedCheck();
      if (this.state !== 'up') return this.observedHealth();
      return {
        status: 'down',
        detail: `The MCP server "${this.config.name}" did not answer a ping in time.`,
      };
    }
  }

  /** One ping; enough consecutive failures take the server down (HTTP has no close event to tell us). */
  async probe(): Promise<void> {
    const client = this.client;
    if (this.probing || !client) return;
    this.probing = true;
    try {
      await client.ping({ timeout: this.options.healthCheckTimeoutMs ?? 1000 });
      if (client === this.current) this.failedChecks = 0;
    } catch (error) {
      if (client !== this.current) return;
      if (this.oauth?.rejected) this.authorizationFailed(error);
      else this.recordFailedCheck();
    } finally {
      this.probing = false;
    }
  }

  private async connectWithRetry(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      if (this.state === 'stopped') throw error;
      // One more try after a short pause: a server that is still starting is common at boot.
      await delay(this.options.retryDelayMs ?? 300);
      if ((this.state as State) === 'stopped') throw error;
      await this.connect();
    }
  }

  private async createTransport(): Promise<Transport> {
    const config = this.config;
    if (config.transport === 'stdio') {
      const StdioClientTransport = await loadStdioClientTransport();
      // The SDK merges `env` over getDefaultEnvironment() (HOME, PATH, SHELL, TERM, USER, LOGNAME),
      // so the child sees those plus exactly what the config declares, never the parent's secrets.
      const maxBufferSize = this.options.maxMessageBytes ?? defaultMaxMessageBytes;
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args,
        env: { ...config.env },
        cwd: config.cwd,
        stderr: this.options.stderr ?? 'ignore',
        maxBufferSize,
      });
      useJsonLineReader(transport, maxBufferSize);
      return transport;
    }
    const { StreamableHTTPClientTransport } = await loadStreamableHttpClient();
    if (!this.oauth) {
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...config.headers } },
      });
    }
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
      authProvider: this.oauth,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (response.status === 401) this.challenged = response.headers.has('www-authenticate');
        return response;
      },
    });
  }

  private async connect(): Promise<void> {
    const generation = ++this.generationCount;
    if (this.oauth && this.config.transport === 'streamable-http') {
      await this.oauth.load();
      this.challenged = false;
      // Configured as OAuth and never signed in: nothing to try until someone runs `patchbay connect`.
      if (this.config.auth === 'oauth' && !this.oauth.hasTokens) throw this.oauth.notSignedIn();
    }
    const transport = await this.createTransport();
    const Client = await loadClient();
    const client = new Client(clientInfo, { capabilities: this.capabilities });
    this.connectingClient = client;
    client.onclose = () => this.handleClose(generation);
    // Transport errors (a failed SSE stream, a write after exit) surface as closes or failed pings;
    // only an oversized message is remembered, to tell the call why its connection went.
    client.onerror = (error) => {
      if (oversizedMessage.test(error.message)) this.oversizedGeneration = generation;
    };
    this.hooks.configure(client, generation);
    let commit: () => void;
    try {
      const timeout = this.options.connectTimeoutMs ?? 15_000;
      const before = transport.onmessage;
      await client.connect(transport, { timeout });
      // Progress, list changes and the server's own requests are read without failed schema checks.
      readByShape(client, transport, before);
      commit = await this.hooks.ready(client, timeout);
    } catch (error) {
      await client.close().catch(() => undefined);
      // `auto`: a 401 without a challenge is a server that wants a static header, not a sign-in.
      if (
        this.oauth &&
        this.config.transport === 'streamable-http' &&
        this.config.auth === 'auto' &&
        !this.challenged &&
        !this.oauth.hasTokens &&
        PatchbayError.isInstance(error) &&
        error.code === 'mcp_authorization_required'
      ) {
        const { StreamableHTTPError } = await loadStreamableHttpClient();
        throw new StreamableHTTPError(401, 'Unauthorized');
      }
      throw error;
    } finally {
      if (this.connectingClient === client) this.connectingClient = undefined;
    }
    if (generation !== this.generationCount || this.state === 'stopped') {
      await client.close().catch(() => undefined);
      throw new PatchbayError(
        'agent_stopped',
        `The MCP server "${this.config.name}" was stopped while connecting.`,
      );
    }
    this.current = client;
    this.transport = transport;
    this.state = 'up';
    this.detail = undefined;
    this.reason = undefined;
    this.connectedAt = Date.now();
    this.failedChecks = 0;
    try {
      commit();
    } catch (error) {
      // Nothing would ever close this client: the retry makes a new one and `markDown` closes only
      // the newest, so a stdio child stayed alive and kept a one-shot `patchbay` from exiting.
      this.current = undefined;
      this.transport = undefined;
      this.state = 'starting';
      await client.close().catch(() => undefined);
      throw error;
    }
    this.startHealthChecks(generation);
  }

  private handleClose(generation: number): void {
    if (generation !== this.generationCount || this.state !== 'up') return;
    this.markDown(`The MCP server "${this.config.name}" closed the connection.`, 'connection_closed');
  }

  private markDown(detail: string, reason: McpServerFailure): void {
    if (this.state === 'stopped') return;
    if (this.state === 'up' && Date.now() - this.connectedAt >= stableConnectionMs) this.reconnectAttempt = 0;
    this.state = 'down';
    this.detail = detail;
    this.reason = reason;
    this.generationCount += 1;
    this.stopHealthChecks();
    const client = this.current;
    this.current = undefined;
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
      this.connect().catch((error: unknown) => {
        if (this.state === 'stopped') return;
        // Keep what the operator needs to see current: a server that was up and now fails to
        // start again says why it cannot start, not that it once closed.
        const failure = classifyStartFailure(error, this.config);
        this.state = 'down';
        this.detail = failure.detail;
        this.reason = failure.reason;
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
      if (generation === this.generationCount) void this.probe();
    }, this.options.healthCheckIntervalMs ?? 3000);
    this.healthTimer.unref();
  }

  private stopHealthChecks(): void {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = undefined;
  }

  private recordFailedCheck(): void {
    // A server sending a large answer answers pings only after it (one pipe, in order): a late
    // ping during a call is no sign of a dead server, and the call has its own time limit.
    if (this.callsInFlight > 0) return;
    this.failedChecks += 1;
    if (this.failedChecks >= (this.options.failedChecksBeforeDown ?? 2)) {
      this.markDown(
        `The MCP server "${this.config.name}" stopped answering health checks.`,
        'health_check_failed',
      );
    }
  }
}
