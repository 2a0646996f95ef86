import type { Client, Tool as McpTool } from '../sdk.js';
import type { McpServerConfig } from './config.js';
import { type McpAgentTool, toAgentTool } from './tool-mapping.js';
import { type DroppedTool, screenUpstreamTools } from './upstream-tool-limits.js';

/** Every page of `tools/list`. */
export async function listAllTools(client: Client, timeout: number): Promise<McpTool[]> {
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

/**
 * The tools one server offers as the registry sees them, kept current: set on connect, re-listed
 * on `notifications/tools/list_changed`, listeners told only when the mapped list really changed.
 */
export class ToolCatalog {
  private tools: McpAgentTool[] = [];
  private byName = new Map<string, McpAgentTool>();
  private signature = '[]';
  private dropped: DroppedTool[] = [];
  private readonly listeners = new Set<() => void>();
  private discovering = false;
  private discoverAgain = false;

  constructor(
    private readonly config: McpServerConfig,
    private readonly retryDelayMs: number,
  ) {}

  list(): McpAgentTool[] {
    return [...this.tools];
  }

  /** Tools the server listed last that broke a limit of `upstreamToolLimits`, with why. */
  droppedTools(): DroppedTool[] {
    return [...this.dropped];
  }

  get(name: string): McpAgentTool | undefined {
    return this.byName.get(name);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Takes a server's listing. What it says is screened first (`screenUpstreamTools`): nothing a server
   * sends about its tools reaches the registry, a turn or the gateway unchecked, and nothing it sends
   * can make this throw (a throw here once left a started child running, see `McpConnection`).
   */
  set(mcpTools: McpTool[]): void {
    const screened = screenUpstreamTools(mcpTools);
    this.dropped = screened.dropped;
    // Task-only tools answer only task-augmented calls, which this client does not make: offering
    // them would promise a tool that always fails.
    const callable = screened.tools.filter((tool) => tool.execution?.taskSupport !== 'required');
    const mapped = callable.map((tool) => toAgentTool(tool, this.config, this.retryDelayMs));
    const signature = JSON.stringify(mapped);
    if (signature === this.signature) return;
    this.tools = mapped;
    this.byName = new Map(mapped.map((tool) => [tool.name, tool]));
    this.signature = signature;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's failure must not stop the others or the agent.
      }
    }
  }

  /**
   * Re-lists after a `list_changed`. Notifications that arrive during a listing coalesce into one
   * more listing; `current` says whether the connection that sent them is still the live one.
   */
  async rediscover(client: () => Client | undefined, current: () => boolean): Promise<void> {
    if (this.discovering) {
      this.discoverAgain = true;
      return;
    }
    this.discovering = true;
    try {
      do {
        this.discoverAgain = false;
        const live = client();
        if (!live || !current()) return;
        const tools = await listAllTools(live, this.config.timeout);
        if (current()) this.set(tools);
      } while (this.discoverAgain);
    } catch {
      // The old list stays; a dead server is caught by the close event or the health checks.
    } finally {
      this.discovering = false;
    }
  }
}
