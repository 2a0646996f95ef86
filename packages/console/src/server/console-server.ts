import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { Connector, Proposal, ProposalState } from '@patchbay/connector';
import { PatchbayError, redactString, redactValue } from '@patchbay/envelope';
import { ConsoleAccess, type ConsoleSession, isOwnRequest } from './access.js';
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
  /** Stops serving and closes every open event stream. */
  close(): Promise<void>;
}

const maximumBodyBytes = 64 * 1024;
const states: ProposalState[] = ['pending', 'approved', 'rejected', 'executed', 'expired'];

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

/** An HTTP error the handler answers with its status and a readable message. */
class ConsoleHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
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

function stringField(body: Record<string, unknown>, name: string, required: true): string;
function stringField(body: Record<string, unknown>, name: string, required?: false): string | undefined;
function stringField(body: Record<string, unknown>, name: string, required = false): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    if (required) throw new ConsoleHttpError(400, `"${name}" is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ConsoleHttpError(400, `"${name}" must be a string.`);
  return value;
}

/** A page for a browser that has no session: how to get one, and nothing else. */
const signedOutPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Patchbay console: sign-in needed</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Sign-in needed</h1>
<p>Open the link that <code>patchbay console</code> printed in your terminal. Each link works once;
run <code>patchbay console</code> again for a new one.</p>
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

  async function toolIndex(): Promise<
    Map<string, { description: string; effect: string; connector: string }>
  > {
    const index = new Map<string, { description: string; effect: string; connector: string }>();
    for (const connector of await backend.connectors()) {
      for (const tool of connector.tools) {
        index.set(tool.name, { description: tool.description, effect: tool.effect, connector: connector.id });
      }
    }
    return index;
  }

  function proposalView(
    proposal: Proposal,
    tools: Map<string, { description: string; effect: string }>,
  ): Record<string, unknown> {
    const decision = feed.decisionOf(proposal.id);
    const tool = tools.get(proposal.tool);
    return {
      id: proposal.id,
      subject: proposal.subject,
      tool: proposal.tool,
      tool_description: tool?.description ?? null,
      effect: tool?.effect ?? null,
      owner: proposal.owner ?? null,
      args: proposal.args,
      state: proposal.state,
      created_at: proposal.createdAt,
      expires_at: new Date(Date.parse(proposal.createdAt) + backend.proposalTtlMs).toISOString(),
      decided_at: proposal.decidedAt ?? null,
      decided_by: proposal.decidedBy ?? decision?.decided_by ?? null,
      reason: proposal.reason ?? null,
      envelope: decision?.envelope ?? null,
    };
  }

  async function listProposals(url: URL): Promise<unknown[]> {
    const subject = url.searchParams.get('subject') || undefined;
    const state = url.searchParams.get('state') || undefined;
    if (state !== undefined && !states.includes(state as ProposalState)) {
      throw new ConsoleHttpError(400, `state must be one of ${states.join(', ')}.`);
    }
    const [proposals, tools] = await Promise.all([
      backend.store.proposals.list({
        ...(subject ? { subject } : {}),
        ...(state ? { state: state as ProposalState } : {}),
      }),
      toolIndex(),
    ]);
    // Pending first, oldest first (the one waiting longest); then decided ones, latest decision first.
    const pending = proposals
      .filter((proposal) => proposal.state === 'pending')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const rest = proposals
      .filter((proposal) => proposal.state !== 'pending')
      .sort((a, b) => (b.decidedAt ?? b.createdAt).localeCompare(a.decidedAt ?? a.createdAt));
    return [...pending, ...rest].map((proposal) => proposalView(proposal, tools));
  }

  async function knownSubjects(): Promise<string[]> {
    const subjects = new Set([backend.defaultSubject]);
    for (const proposal of await backend.store.proposals.list()) subjects.add(proposal.subject);
    for (const record of feed.auditRecords()) {
      const subject = record.entry.subject;
      if (typeof subject === 'string' && subject !== '*') subjects.add(subject);
    }
    return [...subjects].sort();
  }

  async function connectorOf(id: string): Promise<Connector> {
    const connector = (await backend.connectors()).find((candidate) => candidate.id === id);
    if (!connector) throw new ConsoleHttpError(404, `No connector "${id}" is installed.`);
    return connector;
  }

  async function handleApi(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    session: ConsoleSession,
  ): Promise<void> {
    const method = request.method ?? 'GET';
    const path = url.pathname;
    if (method === 'GET') {
      if (path === '/api/session') {
        return sendJson(response, 200, {
          csrf_token: session.csrfToken,
          subject: backend.defaultSubject,
          subjects: await knownSubjects(),
        });
      }
      if (path === '/api/events') return feed.attach(response);
      if (path === '/api/proposals') return sendJson(response, 200, await listProposals(url));
      if (path === '/api/connectors') {
        const subject = url.searchParams.get('subject') || backend.defaultSubject;
        const [items, connectors, policy] = await Promise.all([
          backend.connectorStatus(subject),
          backend.connectors(),
          backend.store.listPolicy(),
        ]);
        return sendJson(response, 200, {
          subject,
          connectors: items.map((item) => {
            const connector = connectors.find((candidate) => candidate.id === item.id);
            return {
              ...item,
              description: connector?.description ?? '',
              // What the connect form asks for; never a value.
              fields: (connector?.auth.fields ?? []).map((field) => ({
                name: field.name,
                description: field.description,
                secret: field.secret !== false,
                optional: (field as { optional?: boolean }).optional === true,
              })),
              disabled_for_everyone: policy.some(
                (rule) => rule.connectorId === item.id && rule.subject === undefined,
              ),
              disabled_for_user: policy.some(
                (rule) => rule.connectorId === item.id && rule.subject === subject,
              ),
            };
          }),
        });
      }
      if (path === '/api/audit') {
        const after = Number(url.searchParams.get('after') ?? 0);
        const records = feed
          .auditRecords()
          .filter((record) => record.seq > (Number.isFinite(after) ? after : 0));
        return sendJson(response, 200, records);
      }
      if (path === '/api/context') {
        const subject = url.searchParams.get('subject') || backend.defaultSubject;
        const verify = url.searchParams.get('verify') === 'true';
        return sendJson(response, 200, { subject, ...(await backend.turnContext(subject, { verify })) });
      }
      throw new ConsoleHttpError(404, 'No such API.');
    }
    if (method !== 'POST') throw new ConsoleHttpError(405, 'Method not allowed.');
    // A state change: the browser must prove it is our page (the CSRF token only our page can read),
    // and say where it comes from.
    if (request.headers.origin === undefined || !access!.hasCsrfToken(request, session)) {
      throw new ConsoleHttpError(403, 'Missing or wrong CSRF token.');
    }
    const body = await readJsonBody(request);
    const proposalAction = /^\/api\/proposals\/([^/]+)\/(approve|reject)$/.exec(path);
    if (proposalAction) {
      const id = decodeURIComponent(proposalAction[1]!);
      try {
        if (proposalAction[2] === 'approve') {
          const { envelope, proposal } = await backend.approve(id, decidedBy);
          await feed.poll();
          const tools = await toolIndex();
          return sendJson(response, 200, {
            envelope,
            proposal: proposal ? proposalView(proposal, tools) : null,
          });
        }
        const reason = stringField(body, 'reason', true).trim();
        if (!reason) throw new ConsoleHttpError(400, 'Give a reason for the rejection.');
        const rejected = await backend.reject(id, reason, decidedBy);
        await feed.poll();
        return sendJson(response, 200, { proposal: proposalView(rejected, await toolIndex()) });
      } catch (error) {
        if (PatchbayError.isInstance(error) && error.code === 'proposal_not_found') {
          throw new ConsoleHttpError(404, `No proposal with id "${id}".`);
        }
        if (PatchbayError.isInstance(error) && error.code === 'proposal_not_pending') {
          throw new ConsoleHttpError(
            409,
            `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`,
          );
        }
        throw error;
      }
    }
    const connectorAction = /^\/api\/connectors\/([^/]+)\/(connect|disconnect|disable|enable)$/.exec(path);
    if (connectorAction) {
      const id = decodeURIComponent(connectorAction[1]!);
      const action = connectorAction[2]!;
      const subject = stringField(body, 'subject') ?? backend.defaultSubject;
      if (action === 'connect') {
        const connector = await connectorOf(id);
        const given = body.credentials;
        if (typeof given !== 'object' || given === null || Array.isArray(given)) {
          throw new ConsoleHttpError(400, '"credentials" must be an object of field values.');
        }
        const credentials: Record<string, string> = {};
        for (const field of connector.auth.fields) {
          const value = (given as Record<string, unknown>)[field.name];
          if (typeof value === 'string' && value.trim() !== '') credentials[field.name] = value.trim();
          else if ((field as { optional?: boolean }).optional !== true) {
            throw new ConsoleHttpError(400, `Enter ${field.description} (${field.name}).`);
          }
        }
        const outcome = await backend.connect(subject, id, credentials);
        // The backend redacts already; redacting again here keeps that true whatever backend is plugged in.
        return sendJson(response, 200, redactValue(outcome, Object.values(credentials)));
      }
      if (action === 'disconnect') {
        return sendJson(response, 200, { removed: await backend.disconnect(subject, id) });
      }
      const scope = body.scope === 'user' ? subject : undefined;
      return sendJson(response, 200, {
        changed: await backend.setPolicy(action as 'disable' | 'enable', id, scope),
      });
    }
    throw new ConsoleHttpError(404, 'No such API.');
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
        return sendJson(response, 401, { error: 'Sign in with the link patchbay console printed.' });
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
      if (error instanceof ConsoleHttpError) {
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
  access = new ConsoleAccess(port);
  await feed.start();
  const url = `http://127.0.0.1:${port}/`;
  const loginUrl = (token: string) => `${url}?token=${token}`;
  const firstToken = access.pendingToken!;
  return {
    url,
    port,
    loginUrl: loginUrl(firstToken),
    renewLoginUrl: () => loginUrl(access!.renewToken()),
    close: async () => {
      feed.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
