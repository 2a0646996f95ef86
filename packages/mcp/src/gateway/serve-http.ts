import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PatchbayError, redactString } from '@patchbay/envelope';
import { createRedactingLogger, type SecretSource } from '@patchbay/orchestrator';
import type { Logger } from 'pino';
import {
  isInitializeRequest,
  loadStreamableHttpServerTransport,
  type StreamableHTTPServerTransport,
} from '../sdk.js';
import { defaultSessionIdleTimeoutMs, isLoopbackHost } from './http-settings.js';
import { createMcpGateway, type McpGateway, type McpGatewayOptions } from './mcp-gateway.js';

/** Settings of {@link serveMcpGatewayHttp}. */
export interface McpGatewayHttpOptions {
  /** Settings of the gateway created for each session. */
  gateway: McpGatewayOptions;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Largest accepted request body, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * How long a session may go without any open request or stream before it is closed (its gateway
   * and transport), in ms. Default 30 minutes; 0 keeps abandoned sessions forever. A host holding
   * the notification stream open is never idle.
   */
  sessionIdleTimeoutMs?: number;
  /**
   * Origins (`scheme://host:port`) a browser may call from: a request with an `Origin` header not in
   * this list is refused with 403, so a web page the user visits cannot drive the gateway (the MCP
   * transport specification requires servers to validate `Origin`). Default: the loopback origins of
   * the served port (`http://127.0.0.1:PORT`, `http://localhost:PORT`, `http://[::1]:PORT`).
   * Requests without `Origin` (hosts that are not browsers) are not affected.
   */
  allowedOrigins?: readonly string[];
  /**
   * A bearer token every request must carry (`Authorization: Bearer <token>`), compared in constant
   * time; otherwise 401. For hosts that can send a header; off by default.
   */
  token?: string;
  /** A pino logger; silent by default. */
  logger?: Logger;
  /**
   * Values that must never reach the logs of the server or of its sessions' gateways, read at every
   * log line. Credential headers of the requests (`Authorization`, `Cookie`, `X-Api-Key`, …) are added
   * on their own.
   */
  secrets?: SecretSource;
}

/** A running streamable HTTP gateway. */
export interface McpGatewayHttpServer {
  /** The endpoint URL, e.g. `http://127.0.0.1:3100/mcp`. */
  url: string;
  host: string;
  port: number;
  /** Open sessions. */
  sessionCount(): number;
  /** Closes every session and the listener. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  gateway: McpGateway;
  /** Requests and streams of this session still open. */
  open: number;
  /** Armed while nothing is open; closes the session when it fires. */
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

/** The host name of a `Host` header, without port. */
function hostnameOf(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  const colon = header.lastIndexOf(':');
  return colon === -1 ? header : header.slice(0, colon);
}

function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

class BodyTooLarge extends Error {}

/** The loopback origins of a port: what a page served by this machine on that port sends. */
function loopbackOrigins(port: number): string[] {
  return ['127.0.0.1', 'localhost', '[::1]'].flatMap((name) => [
    `http://${name}:${port}`,
    `https://${name}:${port}`,
  ]);
}

/** An origin as `URL.origin` writes it (lowercase host, default port dropped), or the text unchanged. */
function normalizeOrigin(origin: string): string {
  try {
    const normalized = new URL(origin).origin;
    return normalized === 'null' ? origin : normalized;
  } catch {
    return origin;
  }
}

/** SHA-256 of a string: equal-length inputs for `timingSafeEqual`, whatever the lengths given. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function hasBearer(request: IncomingMessage, expected: Buffer): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^\s*Bearer\s+(\S+)\s*$/i.exec(header) : null;
  // A missing header is compared too, so the time taken says nothing about what was sent.
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

// Headers that carry credentials; their values are kept out of every log line.
const credentialHeaders = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'private-token',
];
// Enough for the hosts of one machine; the oldest are forgotten first.
const maxRememberedHeaderValues = 256;

/** The credential values of a request: each header whole, the token after a scheme, each cookie value. */
function credentialHeaderValues(headers: IncomingMessage['headers']): string[] {
  const values: string[] = [];
  for (const name of credentialHeaders) {
    const header = headers[name];
    for (const value of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
      values.push(value);
      const scheme = /^\s*[A-Za-z][\w-]*\s+(\S.*)$/.exec(value);
      if (scheme?.[1] && name.endsWith('authorization')) values.push(scheme[1]);
      if (name === 'cookie') {
        for (const pair of value.split(';')) values.push(pair.slice(pair.indexOf('=') + 1).trim());
      }
    }
  }
  return values;
}

/** A bounded set that forgets its oldest entries first. */
class RecentValues implements Iterable<string> {
  private readonly values = new Set<string>();

  constructor(private readonly limit: number) {}

  add(value: string): void {
    this.values.delete(value);
    this.values.add(value);
    if (this.values.size > this.limit) this.values.delete(this.values.values().next().value as string);
  }

  [Symbol.iterator](): Iterator<string> {
    return this.values[Symbol.iterator]();
  }
}

function valuesOf(source: SecretSource | undefined): Iterable<string> {
  return typeof source === 'function' ? source() : (source ?? []);
}

async function readJson(request: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Serves the gateway over MCP streamable HTTP: one gateway (and status watch) per session, created at
 * `initialize` and dropped on `DELETE`, close, or after `sessionIdleTimeoutMs` with nothing open. Bound to a loopback address, requests whose `Host`
 * header names another host are refused, so a web page cannot reach it through DNS rebinding; a
 * request whose `Origin` is not in `allowedOrigins` is refused (403), and with `token` every request
 * must carry it as a bearer token (401).
 */
export async function serveMcpGatewayHttp(options: McpGatewayHttpOptions): Promise<McpGatewayHttpServer> {
  // The HTTP transport (and its HTTP stack) is loaded here, not with the module: stdio never needs it.
  const StreamableHTTPServerTransport = await loadStreamableHttpServerTransport();
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const headerSecrets = new RecentValues(maxRememberedHeaderValues);
  const configured = [options.secrets, options.gateway.secrets, options.token ? [options.token] : undefined];
  const secrets = () => [...configured.flatMap((source) => [...valuesOf(source)]), ...headerSecrets];
  const log = createRedactingLogger({
    logger: options.logger,
    bindings: { component: 'mcp-gateway-http' },
    secrets,
  });
  const idleTimeoutMs = options.sessionIdleTimeoutMs ?? defaultSessionIdleTimeoutMs;
  const loopbackOnly = isLoopbackHost(host);
  const sessions = new Map<string, Session>();
  if (options.token !== undefined && options.token.trim() === '') {
    throw new PatchbayError('invalid_gateway_options', 'The HTTP gateway token must not be empty.');
  }
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);
  // Filled in once the port is known (port 0 picks one).
  let allowedOrigins = new Set<string>();

  function forget(sessionId: string): void {
    const session = sessions.get(sessionId);
    if (!session) return;
    clearTimeout(session.idleTimer);
    sessions.delete(sessionId);
  }

  /** Closes a session nobody has touched for the idle timeout: a host that went away without DELETE. */
  async function expire(sessionId: string, session: Session): Promise<void> {
    if (sessions.get(sessionId) !== session || session.open > 0) return;
    forget(sessionId);
    log.info({ session: sessionId, idle_timeout_ms: idleTimeoutMs }, 'idle session closed');
    await Promise.allSettled([session.gateway.close(), session.transport.close()]);
  }

  /** Counts a request or stream as open until its response closes; the idle clock runs only at zero. */
  function track(sessionId: string, session: Session, response: ServerResponse): void {
    session.open += 1;
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    response.once('close', () => {
      session.open -= 1;
      if (session.open > 0 || idleTimeoutMs <= 0 || sessions.get(sessionId) !== session) return;
      session.idleTimer = setTimeout(() => void expire(sessionId, session), idleTimeoutMs);
      // Open sockets keep the process alive, not the idle clock.
      session.idleTimer.unref?.();
    });
  }

  async function openSession(request: IncomingMessage, response: ServerResponse, body: unknown) {
    const gateway = createMcpGateway({ ...options.gateway, secrets });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        const session: Session = { transport, gateway, open: 0, idleTimer: undefined };
        sessions.set(sessionId, session);
        track(sessionId, session, response);
        log.info({ session: sessionId }, 'session opened');
      },
      onsessionclosed: (sessionId) => {
        forget(sessionId);
        log.info({ session: sessionId }, 'session closed');
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) forget(transport.sessionId);
    };
    await gateway.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    for (const value of credentialHeaderValues(request.headers)) headerSecrets.add(value);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      sendJsonRpcError(response, 404, -32601, `Not found: the MCP endpoint is ${path}`);
      return;
    }
    if (loopbackOnly && !isLoopbackHost(hostnameOf(request.headers.host ?? ''))) {
      sendJsonRpcError(response, 403, -32600, 'Forbidden: this gateway answers loopback hosts only');
      return;
    }
    // Browsers always send Origin on cross-origin requests: a page elsewhere is refused before it
    // can open a session that acts with the user's stored credentials.
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(normalizeOrigin(origin))) {
      log.warn({ origin }, 'request from a disallowed origin refused');
      sendJsonRpcError(response, 403, -32600, 'Forbidden: requests from this Origin are not allowed');
      return;
    }
    if (tokenDigest !== undefined && !hasBearer(request, tokenDigest)) {
      response.setHeader('www-authenticate', 'Bearer');
      sendJsonRpcError(response, 401, -32600, 'Unauthorized: send Authorization: Bearer <token>');
      return;
    }
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) {
        sendJsonRpcError(response, 404, -32001, 'Session not found');
        return;
      }
      track(sessionId, session, response);
      await session.transport.handleRequest(request, response);
      return;
    }
    if (request.method !== 'POST') {
      sendJsonRpcError(response, 400, -32000, 'Bad request: no session; send initialize first');
      return;
    }
    let body: unknown;
    try {
      body = await readJson(request, maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) sendJsonRpcError(response, 413, -32600, 'Request body too large');
      else sendJsonRpcError(response, 400, -32700, 'Parse error');
      return;
    }
    if (!isInitializeRequest(body)) {
      sendJsonRpcError(response, 400, -32000, 'Bad request: no session; send initialize first');
      return;
    }
    await openSession(request, response, body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log.error(
        { error: redactString(error instanceof Error ? error.message : String(error)) },
        'request failed',
      );
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, 'Internal error');
      else response.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // `[::1]` is how a URL writes the address; the socket wants it bare.
    const listenHost = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    server.listen(options.port ?? 0, listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  allowedOrigins = new Set((options.allowedOrigins ?? loopbackOrigins(port)).map(normalizeOrigin));
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}${path}`,
    host,
    port,
    sessionCount: () => sessions.size,
    async close() {
      const open = [...sessions.values()];
      for (const session of open) clearTimeout(session.idleTimer);
      sessions.clear();
      await Promise.allSettled(open.map((session) => session.gateway.close()));
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
