import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PatchbayError } from '@patchbay/envelope';
import {
  type Client,
  loadClient,
  loadStreamableHttpClient,
  loadUnauthorizedError,
  type StreamableHTTPClientTransport,
} from '../sdk.js';
import type { McpHttpServerConfig, McpServerConfig } from './config.js';
import { type McpOAuthOptions, StoredOAuthProvider } from './oauth-provider.js';
import { listAllTools } from './tool-discovery.js';

/** How long a person has to finish signing in, by default: five minutes. */
export const defaultAuthorizationTimeoutMs = 300_000;

const clientInfo = { name: 'patchbay-orchestrator', version: '0.1.0' };
const callbackPath = '/callback';

/** Options of {@link authorizeMcpServer}. */
export interface AuthorizeMcpServerOptions extends McpOAuthOptions {
  /**
   * Receives the URL the person must open to sign in (print it, or open a browser). Called once,
   * after discovery and client registration, while the loopback redirect listens.
   */
  onAuthorizationUrl(url: URL): void | Promise<void>;
  /** How long to wait for the redirect, in milliseconds (default {@link defaultAuthorizationTimeoutMs}). */
  timeoutMs?: number | undefined;
  /** Aborts the wait (Ctrl-C). */
  signal?: AbortSignal | undefined;
}

/** What a finished sign-in stored, without any secret. */
export interface AuthorizeMcpServerResult {
  /** `authorized`: tokens stored; `not_needed`: the server answered without asking for a sign-in. */
  status: 'authorized' | 'not_needed';
  /** Tools the server lists with the new authorization, sorted. */
  tools: string[];
  /** Scopes the authorization server granted, when it said. */
  scopes: string[];
  /** The URL that was handed to `onAuthorizationUrl`, when a sign-in was needed. */
  authorizationUrl?: string | undefined;
}

function failed(message: string, cause?: unknown): PatchbayError {
  return new PatchbayError('mcp_authorization_failed', message, cause === undefined ? undefined : { cause });
}

/** A loopback listener that takes the one redirect carrying this sign-in's `state`. */
async function listenForRedirect(
  port: number,
  expectedState: string,
  serverName: string,
): Promise<{ server: Server; redirectUrl: string; code: Promise<string> }> {
  let settle!: { resolve(code: string): void; reject(error: Error): void };
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A caller that gives up (timeout, abort) leaves this promise rejected with nobody listening.
  code.catch(() => undefined);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, text: string) => {
      response.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
      });
      response.end(text);
    };
    if (request.method !== 'GET' || url.pathname !== callbackPath) {
      reply(404, 'Not found.');
      return;
    }
    // Only the redirect of this sign-in counts: another page (or site) forging one is turned away,
    // and the real one can still arrive.
    if (url.searchParams.get('state') !== expectedState) {
      reply(
        400,
        'This sign-in link does not belong to the sign-in Patchbay is waiting for (state mismatch).',
      );
      return;
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      // The error code is a fixed word (RFC 6749 §4.1.2.1); anything else is not repeated.
      const word = /^[a-z_]{1,64}$/.test(error) ? error : 'an error';
      reply(400, `Sign-in to ${serverName} was not completed (${word}). You can close this window.`);
      settle.reject(
        failed(`The authorization server answered ${word}: the sign-in to "${serverName}" was refused.`),
      );
      return;
    }
    const value = url.searchParams.get('code');
    if (!value) {
      reply(400, 'The redirect carries no authorization code.');
      return;
    }
    reply(200, `Signed in to ${serverName}. You can close this window and return to the terminal.`);
    settle.resolve(value);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return { server, redirectUrl: `http://127.0.0.1:${bound}${callbackPath}`, code };
}

function waitFor<T>(
  work: Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  name: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new PatchbayError(
          'mcp_authorization_timeout',
          `Nobody finished signing in to "${name}" within ${Math.round(timeoutMs / 1000)} s.`,
        ),
      );
    }, timeoutMs);
    const onAbort = () => {
      cleanup();
      reject(new PatchbayError('cancelled', `The sign-in to "${name}" was cancelled.`));
    };
    function cleanup() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

function requireOAuthServer(server: McpServerConfig): McpHttpServerConfig {
  if (server.transport !== 'streamable-http') {
    throw failed(
      `The MCP server "${server.name}" runs over stdio; only streamable-HTTP servers sign in with OAuth.`,
    );
  }
  if (server.auth === 'none') {
    throw failed(`The MCP server "${server.name}" has "auth": "none" in its configuration.`);
  }
  return server;
}

/**
 * Signs a subject in to a streamable-HTTP MCP server with OAuth 2.1 and stores the tokens encrypted
 * in the subject's connection for the server. Discovers the protected-resource and authorization
 * server metadata, registers a client when none is configured (dynamic client registration), sends
 * the person to the authorization URL with PKCE (S256) and a random `state`, takes the code on a
 * loopback redirect (`127.0.0.1`, a free port unless `oauth.redirectPort` is set), exchanges it and
 * lists the server's tools with the new token. A redirect with another `state` is refused; no sign-in
 * within `timeoutMs` fails with `mcp_authorization_timeout`. Tokens are never returned or logged.
 */
export async function authorizeMcpServer(
  serverConfig: McpServerConfig,
  options: AuthorizeMcpServerOptions,
): Promise<AuthorizeMcpServerResult> {
  const server = requireOAuthServer(serverConfig);
  const state = randomBytes(32).toString('base64url');
  const redirect = await listenForRedirect(server.oauth?.redirectPort ?? 0, state, server.name);
  let authorizationUrl: URL | undefined;
  const provider = new StoredOAuthProvider(server, options, {
    redirectUrl: redirect.redirectUrl,
    state,
    onAuthorizationUrl: (url) => {
      authorizationUrl = url;
    },
  });
  const clients: Client[] = [];
  let lastTransport: StreamableHTTPClientTransport | undefined;
  const [Client, { StreamableHTTPClientTransport }, UnauthorizedError] = await Promise.all([
    loadClient(),
    loadStreamableHttpClient(),
    loadUnauthorizedError(),
  ]);
  const connectOnce = async () => {
    const client = new Client(clientInfo, { capabilities: {} });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { ...server.headers } },
      authProvider: provider,
    });
    lastTransport = transport;
    await client.connect(transport, { timeout: server.timeout });
    return { client, transport };
  };
  const timeoutMs = options.timeoutMs ?? defaultAuthorizationTimeoutMs;
  try {
    await provider.load();
    // `connect` is a fresh sign-in: the stored tokens (perhaps revoked) are not tried, only replaced.
    provider.forgetTokens();
    let pending: StreamableHTTPClientTransport | undefined;
    try {
      const { client } = await connectOnce();
      const tools = await listAllTools(client, server.timeout);
      return {
        status: 'not_needed',
        tools: tools.map((tool) => tool.name).sort(),
        scopes: [],
      };
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || authorizationUrl === undefined) throw error;
      pending = lastTransport;
    }
    await options.onAuthorizationUrl(authorizationUrl);
    const code = await waitFor(redirect.code, timeoutMs, options.signal, server.name);
    if (!pending) throw failed(`The sign-in to "${server.name}" lost its connection.`);
    await pending.finishAuth(code);
    const { client } = await connectOnce();
    const tools = await listAllTools(client, server.timeout);
    const scope = provider.tokens()?.scope;
    return {
      status: 'authorized',
      tools: tools.map((tool) => tool.name).sort(),
      scopes: typeof scope === 'string' ? scope.split(' ').filter((item) => item !== '') : [],
      authorizationUrl: authorizationUrl.href,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    redirect.server.closeAllConnections();
    await new Promise<void>((resolve) => redirect.server.close(() => resolve()));
  }
}
