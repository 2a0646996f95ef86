// The MCP hosts a gate caller calls tools through: one on an in-process transport to the config's
// gateway (`mcp-host`), one over streamable HTTP on loopback (`mcp-http-host`), speaking the
// transport itself with `fetch`.
import type { EvalCallers } from '../config.js';
import type { RunEnvelope } from '../run-types.js';

/** How an HTTP host sends a step's calls: another `Origin`, a wrong or no token, an unknown or no session. */
export interface HostRequestOptions {
  origin?: string | undefined;
  token?: 'wrong' | 'none' | undefined;
  session?: 'unknown' | 'none' | undefined;
}

/** An MCP host of the gateway: it calls tools, and closes. */
export interface GateHost {
  call(name: string, args: unknown, how?: HostRequestOptions): Promise<RunEnvelope>;
  close(): Promise<void>;
}

/** What the gateway of a host is built from (`refreshIntervalMs` aside). */
export type HostGatewayOptions = Omit<
  Parameters<NonNullable<EvalCallers['gateway']>>[0],
  'refreshIntervalMs'
>;

/** A JSON-RPC message on the in-process transport. */
interface RpcMessage {
  jsonrpc: '2.0';
  id?: number;
  method?: string;
  params?: unknown;
  result?: { structuredContent?: RunEnvelope };
  error?: { message: string };
}

/** The in-process transport the gateway connects to: the SDK's Transport shape, written here. */
interface HostTransport {
  start(): Promise<void>;
  close(): Promise<void>;
  send(message: RpcMessage): Promise<void>;
  onclose?: () => void;
  onmessage?: (message: RpcMessage) => void;
}

/**
 * An MCP host on an in-process transport: JSON-RPC requests in, the server's answers out. It speaks
 * only what a host needs here: `initialize`, `notifications/initialized` and `tools/call`.
 */
async function connectHost(gateway: ReturnType<NonNullable<EvalCallers['gateway']>>): Promise<GateHost> {
  const waiting = new Map<number, (message: RpcMessage) => void>();
  let nextId = 1;
  const transport: HostTransport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      if (message.id !== undefined && waiting.has(message.id) && !('method' in message)) {
        waiting.get(message.id)!(message);
        waiting.delete(message.id);
      }
    },
  };
  // The gateway's connect takes the SDK's Transport, which this object is, structurally.
  await gateway.connect(transport as never);
  const request = (method: string, params: unknown) =>
    new Promise<RpcMessage>((resolve) => {
      const id = nextId;
      nextId += 1;
      waiting.set(id, resolve);
      transport.onmessage?.({ jsonrpc: '2.0', id, method, params });
    });
  const hello = await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'patchbay-eval-host', version: '0.0.0' },
  });
  if (hello.error) throw new Error(`initialize failed: ${hello.error.message}`);
  transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    async call(name, args) {
      const answer = await request('tools/call', { name, arguments: args });
      if (answer.error) throw new Error(`tools/call ${name} failed: ${answer.error.message}`);
      return answer.result?.structuredContent as RunEnvelope;
    },
    close: () => gateway.close(),
  };
}

/** An MCP host of the config's gateway (`callers.gateway`), connected at its first call. */
export function mcpHostFor(
  createGateway: NonNullable<EvalCallers['gateway']>,
  options: HostGatewayOptions,
): GateHost {
  let host: GateHost | undefined;
  return {
    async call(name, args) {
      host ??= await connectHost(createGateway({ ...options, refreshIntervalMs: 0 }));
      return host.call(name, args);
    },
    async close() {
      await host?.close();
    },
  };
}

/** The parsed JSON-RPC message of a streamable HTTP answer: a JSON body or the first SSE `data:` event. */
async function rpcAnswer(response: Response): Promise<RpcMessage | undefined> {
  const body = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = body
      .split('\n')
      .find((line) => line.startsWith('data:'))
      ?.slice(5)
      .trim();
    return data ? JSON.parse(data) : undefined;
  }
  return body ? JSON.parse(body) : undefined;
}

/**
 * An MCP host of the gateway served over streamable HTTP on loopback (`serve`, e.g.
 * `serveMcpGatewayHttp`), with a bearer token, started at its first call. Each call may go out with
 * another `Origin`, a wrong or no token, an unknown or no session: what a page elsewhere or a host
 * that lost its session sends. The server sees every request as a host's, through its HTTP checks.
 */
class HttpGatewayHost implements GateHost {
  // A per-run token: the host proves it with every request, and nothing else on the machine has it.
  private readonly token = `eval-gateway-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  private server: { url: string; close(): Promise<void> } | undefined;
  private sessionId: string | undefined;
  private nextId = 1;

  constructor(
    private readonly serve: NonNullable<EvalCallers['serveGateway']>,
    private readonly options: HostGatewayOptions,
  ) {}

  /** The headers of a request sent as `how` says (a wrong or no token, an unknown or no session). */
  private headersFor(
    url: string,
    { origin, token: tokenMode, session }: HostRequestOptions,
  ): Record<string, string> {
    const { token, sessionId } = this;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      origin: origin ?? new URL(url).origin,
      'mcp-protocol-version': '2025-06-18',
    };
    if (tokenMode !== 'none') headers.authorization = `Bearer ${tokenMode === 'wrong' ? `${token}x` : token}`;
    if (session === 'unknown') headers['mcp-session-id'] = '00000000-0000-4000-8000-000000000000';
    else if (session !== 'none' && sessionId) headers['mcp-session-id'] = sessionId;
    return headers;
  }

  private post(message: RpcMessage, how: HostRequestOptions = {}) {
    const url = this.server!.url;
    return fetch(url, { method: 'POST', headers: this.headersFor(url, how), body: JSON.stringify(message) });
  }

  private async request(method: string, params: unknown, how?: HostRequestOptions) {
    const id = this.nextId;
    this.nextId += 1;
    const response = await this.post({ jsonrpc: '2.0', id, method, params }, how);
    return { response, answer: response.ok ? await rpcAnswer(response) : undefined };
  }

  /** Serves the gateway and opens a session, as a host does before its first call. */
  private async start() {
    const { token } = this;
    this.server = await this.serve({
      gateway: { ...this.options, refreshIntervalMs: 0 },
      host: '127.0.0.1',
      port: 0,
      token,
      secrets: [token],
    });
    const { response, answer } = await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'patchbay-eval-http-host', version: '0.0.0' },
    });
    if (!response.ok || answer?.error)
      throw new Error(`initialize over HTTP failed: ${response.status} ${answer?.error?.message ?? ''}`);
    this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    if (!this.sessionId) throw new Error('the HTTP gateway issued no session id');
    const initialized = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await initialized.text();
  }

  async call(name: string, args: unknown, how: HostRequestOptions = {}): Promise<RunEnvelope> {
    if (!this.server) await this.start();
    const { response, answer } = await this.request('tools/call', { name, arguments: args }, how);
    if (!response.ok) {
      await response.text().catch(() => undefined);
      return { ok: false, http_status: response.status };
    }
    if (answer?.error) throw new Error(`tools/call ${name} failed: ${answer.error.message}`);
    return answer?.result?.structuredContent as RunEnvelope;
  }

  async close(): Promise<void> {
    const { server, sessionId, token } = this;
    if (!server) return;
    if (sessionId)
      await fetch(server.url, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}`, 'mcp-session-id': sessionId },
      })
        .then((response) => response.text())
        .catch(() => undefined);
    await server.close();
  }
}

/** An MCP host of the gateway served over streamable HTTP (see {@link HttpGatewayHost}). */
export function mcpHttpHostFor(
  serve: NonNullable<EvalCallers['serveGateway']>,
  options: HostGatewayOptions,
): GateHost {
  return new HttpGatewayHost(serve, options);
}
