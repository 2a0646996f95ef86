import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { PatchbayError, redactString } from '@patchbay/envelope';
import {
  ConsoleAccess,
  type ConsoleSession,
  defaultSessionIdleTimeoutMs,
  defaultSessionMaxAgeMs,
  isOwnRequest,
  type SessionEnd,
} from './access.js';
import { ConsoleHttpError, createApiRoutes, streamed } from './api-routes.js';
import type { ConsoleBackend } from './backend.js';
import { LiveFeed } from './live-feed.js';

/** Options of {@link startConsole}. */
export interface ConsoleOptions {
  /** What the console reads and does. */
  backend: ConsoleBackend;
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** How often the store is polled for new audit entries and proposals, in ms. Default 1000. */
  pollIntervalMs?: number;
  /** Who decides, as recorded on proposals decided here. Default `console` plus the OS account. */
  decidedBy?: string;
  /** Directory of the built browser app; found next to the package's `dist/` by default. */
  appDirectory?: string;
  /**
   * A session ends after this long without a request, in ms. Default
   * {@link defaultSessionIdleTimeoutMs} (30 minutes).
   */
  sessionIdleTimeoutMs?: number;
  /** A session ends this long after its sign-in however active, in ms. Default {@link defaultSessionMaxAgeMs} (8 hours). */
  sessionMaxAgeMs?: number;
  /**
   * Called when the last session ended (sign-out or a limit), with a fresh one-time login URL: the
   * used one is dead, so the person needs a new link to come back. Print it where the first one went.
   */
  onSignInAgain?: (loginUrl: string, why: SessionEnd) => void;
}

/** A running console. */
export interface RunningConsole {
  /** Base URL, without the token: `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** The URL to open once: it carries the one-time access token. Print it; never log it elsewhere. */
  readonly loginUrl: string;
  readonly port: number;
  /** Issues a new one-time login URL (the previous token, if unused, stops working). */
  renewLoginUrl(): string;
  /** How many browser sessions are signed in now. */
  sessionCount(): number;
  /** Stops serving and closes every open event stream. */
  close(): Promise<void>;
}

const maximumBodyBytes = 64 * 1024;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** Headers on every answer: nothing framed, sniffed, cached, referred or loaded from elsewhere. */
const securityHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Where `vite build` put the app: dist/app beside the bundled server, or from the sources, ../../dist/app. */
function defaultAppDirectory(): string {
  const candidates = [join(import.meta.dirname, 'app'), join(import.meta.dirname, '..', '..', 'dist', 'app')];
  return candidates.find((directory) => existsSync(join(directory, 'index.html'))) ?? candidates[0]!;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    ...securityHeaders,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

function sendText(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, {
    ...securityHeaders,
    'content-type': contentType,
    'cache-control': 'no-store',
  });
  response.end(body);
}

async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('application/json')) throw new ConsoleHttpError(415, 'Send JSON.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maximumBodyBytes) throw new ConsoleHttpError(413, 'Request body too large.');
    chunks.push(chunk as Buffer);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new ConsoleHttpError(400, 'The request body is not a JSON object.');
  }
}

/** A page for a browser that has no session: how to get one, and nothing else. */
const signedOutPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Patchbay console: sign-in needed</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Sign-in needed</h1>
<p>Open the link that <code>patchbay console</code> printed in your terminal. Each link works once;
after you sign out, or a session ends (30 minutes without use, or 8 hours after signing in), the
terminal prints a new one.</p>
</body></html>`;

/**
 * Starts the console: an HTTP server on 127.0.0.1 serving the bundled app and its JSON API, with live
 * updates over server-sent events. Open {@link RunningConsole.loginUrl} once to sign in.
 */
export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const { backend } = options;
  const appDirectory = options.appDirectory ?? defaultAppDirectory();
  if (!existsSync(join(appDirectory, 'index.html'))) {
    throw new PatchbayError(
      'internal_error',
      `The console's web app is not built (no index.html in ${appDirectory}); run "pnpm build".`,
    );
  }
  const account = process.env.USER ?? process.env.USERNAME;
  const decidedBy = options.decidedBy ?? `console${account ? ` (${account})` : ''}`;
  const feed = new LiveFeed(backend.store, options.pollIntervalMs);
  let access: ConsoleAccess | undefined;
  let port = 0;
  // Event streams per session: an ended session's streams close, so nothing more reaches its page.
  const streams = new Map<string, Set<ServerResponse>>();

  const routes = createApiRoutes(backend, feed, decidedBy);

  async function handleApi(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    session: ConsoleSession,
  ): Promise<void> {
    const matching = routes
      .map((route) => ({ route, match: route.path.exec(url.pathname) }))
      .filter((candidate) => candidate.match !== null);
    if (matching.length === 0) throw new ConsoleHttpError(404, 'No such API.');
    const found = matching.find((candidate) => candidate.route.method === request.method);
    if (!found) throw new ConsoleHttpError(405, 'Method not allowed.');
    let body: Record<string, unknown> = {};
    if (found.route.method === 'POST') {
      // A state change: the browser must prove it is our page (the CSRF token only our page can
      // read) and say where it comes from (the Origin, checked against our own before this).
      if (request.headers.origin === undefined || !access!.hasCsrfToken(request, session)) {
        throw new ConsoleHttpError(403, 'Missing or wrong CSRF token.');
      }
      body = await readJsonBody(request);
    }
    const params = found.match!.slice(1).map((part) => decodeURIComponent(part));
    if (url.pathname === '/api/events') {
      const open = streams.get(session.id) ?? new Set<ServerResponse>();
      streams.set(session.id, open.add(response));
      response.on('close', () => open.delete(response));
    }
    const signOut = () => {
      access!.signOut(session);
      response.setHeader('set-cookie', access!.clearedCookie());
    };
    const answer = await found.route.run({
      url,
      params,
      body,
      response,
      csrfToken: session.csrfToken,
      signOut,
    });
    if (answer !== streamed) sendJson(response, 200, answer);
  }

  function serveApp(response: ServerResponse, pathname: string): void {
    const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
    const file = normalize(join(appDirectory, relative));
    if (!file.startsWith(appDirectory + sep) || !existsSync(file) || !extname(file)) {
      // Unknown paths get the app (it routes by hash, but a reload of a deep link should still work).
      serveApp(response, '/');
      return;
    }
    const body = readFileSync(file);
    response.writeHead(200, {
      ...securityHeaders,
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
      // Hashed asset names never change content; the page itself is read fresh.
      'cache-control': relative.startsWith('assets/') ? 'private, max-age=31536000, immutable' : 'no-store',
    });
    response.end(body);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isOwnRequest(request, port)) {
      return sendText(
        response,
        403,
        'text/plain; charset=utf-8',
        'Forbidden: not a request for this console.',
      );
    }
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const token = url.searchParams.get('token');
    if (token !== null && request.method === 'GET' && url.pathname === '/') {
      const session = access!.exchange(token);
      if (!session) {
        return sendText(response, 401, 'text/html; charset=utf-8', signedOutPage);
      }
      // Redirect to the bare URL: the (now dead) token leaves the address bar and the history.
      response.writeHead(303, {
        ...securityHeaders,
        location: '/',
        'set-cookie': access!.sessionCookie(session),
        'cache-control': 'no-store',
      });
      response.end();
      return;
    }
    const session = access!.sessionOf(request);
    if (!session) {
      if (url.pathname.startsWith('/api/')) {
        return sendJson(response, 401, {
          error:
            'Not signed in, or the session ended. Sign in with the newest link patchbay console printed in your terminal.',
        });
      }
      return sendText(response, 401, 'text/html; charset=utf-8', signedOutPage);
    }
    if (url.pathname.startsWith('/api/')) return handleApi(request, response, url, session);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new ConsoleHttpError(405, 'Method not allowed.');
    }
    return serveApp(response, url.pathname);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.end();
        return;
      }
      if (ConsoleHttpError.isInstance(error)) {
        sendJson(response, error.status, { error: error.message });
        return;
      }
      // Whatever went wrong inside: a readable message, never a stack or a raw value.
      const message = PatchbayError.isInstance(error)
        ? error.message
        : 'Something went wrong in the console.';
      sendJson(response, 500, { error: redactString(message) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  const loginUrl = (token: string) => `${url}?token=${token}`;
  const limits = {
    idleTimeoutMs: options.sessionIdleTimeoutMs ?? defaultSessionIdleTimeoutMs,
    maxAgeMs: options.sessionMaxAgeMs ?? defaultSessionMaxAgeMs,
  };
  access = new ConsoleAccess(port, undefined, limits, Date.now, (session, why) => {
    for (const stream of streams.get(session.id) ?? []) stream.end();
    streams.delete(session.id);
    // The last browser is out and the first link was spent: hand the person a new one.
    if (access!.sessionCount === 0 && access!.pendingToken === undefined && options.onSignInAgain) {
      options.onSignInAgain(loginUrl(access!.renewToken()), why);
    }
  });
  // Ends idle sessions even when their page makes no request (a closed tab, an open event stream).
  const sweeper = setInterval(() => access!.sweep(), Math.min(limits.idleTimeoutMs, 60_000));
  sweeper.unref();
  await feed.start();
  const firstToken = access.pendingToken!;
  return {
    url,
    port,
    loginUrl: loginUrl(firstToken),
    renewLoginUrl: () => loginUrl(access!.renewToken()),
    sessionCount: () => access!.sessionCount,
    close: async () => {
      clearInterval(sweeper);
      feed.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
