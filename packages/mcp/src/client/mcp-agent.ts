import type { Envelope } from '@patchbay/envelope';
import type { AgentCallContext, AgentHealth, AgentManifest } from '@patchbay/orchestrator';
import type { Client } from '../sdk.js';
import { type GetPromptResult, type Prompt, ToolListChangedNotificationSchema } from '../sdk.js';
import type { McpServerConfig } from './config.js';
import { McpConnection } from './connection.js';
import { clientCapabilities, handleElicitation } from './elicitation.js';
import type { McpAgent, McpAgentHealth, McpAgentOptions } from './mcp-agent-types.js';
import { StoredOAuthProvider } from './oauth-provider.js';
import { getPrompt, listPrompts } from './prompts.js';
import { ToolCalls } from './tool-calls.js';
import { listAllTools, ToolCatalog } from './tool-discovery.js';
import type { McpAgentTool } from './tool-mapping.js';
import type { DroppedTool } from './upstream-tool-limits.js';

export type { McpAgent, McpAgentHealth, McpAgentOptions } from './mcp-agent-types.js';

/** Wires one server's connection, tool catalog and calls together behind the {@link McpAgent} face. */
class McpServerAgent implements McpAgent {
  readonly kind = 'mcp' as const;
  readonly id: string;
  readonly autoStart: boolean;
  readonly trusted: boolean;
  readonly prefix: string | undefined;
  private readonly connection: McpConnection;
  private readonly catalog: ToolCatalog;
  private readonly calls: ToolCalls;

  constructor(
    private readonly config: McpServerConfig,
    options: McpAgentOptions,
  ) {
    this.id = config.name;
    this.autoStart = config.autoStart;
    this.trusted = config.trust;
    this.prefix = config.prefix;
    this.catalog = new ToolCatalog(config, options.retryDelayMs ?? 300);
    const handler = options.elicitation;
    const oauth =
      options.oauth && config.transport === 'streamable-http' && config.auth !== 'none'
        ? new StoredOAuthProvider(config, options.oauth)
        : undefined;
    this.connection = new McpConnection(
      config,
      options,
      clientCapabilities(handler),
      {
        configure: (client: Client, generation: number) => {
          client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
            this.catalog.rediscover(
              () => this.connection.client,
              () => generation === this.connection.generation && this.connection.status === 'up',
            ),
          );
          if (handler) handleElicitation(client, config.name, handler, () => this.calls.inFlight);
        },
        ready: async (client, timeout) => {
          const tools = await listAllTools(client, timeout);
          return () => this.catalog.set(tools);
        },
      },
      oauth,
    );
    this.calls = new ToolCalls(
      config,
      options,
      this.connection,
      this.catalog,
      () => oauth?.secretValues() ?? [],
    );
  }

  get status(): AgentHealth['status'] {
    return this.connection.status;
  }

  get pid(): number | undefined {
    return this.connection.pid;
  }

  observedHealth(): McpAgentHealth {
    return this.connection.observedHealth();
  }

  health(): Promise<McpAgentHealth> {
    return this.connection.health();
  }

  manifest(): AgentManifest & { tools: McpAgentTool[] } {
    return {
      id: this.id,
      kind: 'mcp',
      ...this.introduction(),
      ...(this.config.requireApproval ? { requiresApproval: true } : {}),
      tools: this.catalog.list(),
    };
  }

  private introduced: { client: unknown; name: string; capabilities: readonly string[] } | undefined;

  /**
   * The name the server gave itself (else the configured one) and the capability groups it
   * announced: read once per connection, since the manifest is asked for on every tool listing.
   */
  private introduction(): { name: string; capabilities: readonly string[] } {
    const client = this.connection.client;
    let introduced = this.introduced;
    if (introduced === undefined || introduced.client !== client) {
      introduced = this.introduced = {
        client,
        name: client?.getServerVersion()?.name ?? this.id,
        capabilities: Object.keys(client?.getServerCapabilities() ?? {}).sort(),
      };
    }
    return { name: introduced.name, capabilities: introduced.capabilities };
  }

  onToolsChanged(listener: () => void): () => void {
    return this.catalog.onChange(listener);
  }

  droppedTools(): DroppedTool[] {
    return this.catalog.droppedTools();
  }

  /**
   * Connects and discovers the tools. When the server cannot be reached (after one retry) the
   * agent stays registered as `down` and keeps reconnecting in the background, so a server that
   * comes up later joins without a restart; `health()` says why it is down. With
   * `throwOnStartFailure` it throws `agent_init_failed` instead and does not retry on its own.
   */
  initialize(): Promise<void> {
    return this.connection.start();
  }

  shutdown(): Promise<void> {
    return this.connection.stop();
  }

  execute(toolName: string, args: unknown, context: AgentCallContext): Promise<Envelope> {
    return this.calls.execute(toolName, args, context);
  }

  async listPrompts(): Promise<Prompt[]> {
    return this.calls.redact(
      await this.redacting(listPrompts(this.connection.client, this.id, this.config.timeout)),
    );
  }

  async getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult> {
    return this.calls.redact(
      await this.redacting(getPrompt(this.connection.client, this.id, this.config.timeout, name, args)),
    );
  }

  /** Server text reaches prompts and error messages: both are redacted like call results. */
  private async redacting<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof Error) error.message = this.calls.redact(error.message);
      throw error;
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
