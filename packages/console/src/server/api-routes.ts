import type { ServerResponse } from 'node:http';
import type { Connector } from '@patchbay/connector';
import type { Proposal, ProposalState } from '@patchbay/connector/ports';
import { PatchbayError, type PatchbayErrorCode, redactValue } from '@patchbay/envelope';
import type { ConsoleBackend } from './backend.js';
import type { LiveFeed } from './live-feed.js';

/** The code of a {@link ConsoleHttpError} by its HTTP status, for logs and `PatchbayError` checks. */
const codeOfStatus: Readonly<Record<number, PatchbayErrorCode>> = {
  400: 'invalid_arguments',
  403: 'permission_denied',
  404: 'not_found',
  405: 'invalid_usage',
  409: 'conflict',
  413: 'invalid_arguments',
  415: 'invalid_arguments',
};

/**
 * An HTTP error the server answers with its status and a readable message. A `PatchbayError` like
 * every error Patchbay throws, with a code that follows the status (`not_found` for 404, …).
 */
export class ConsoleHttpError extends PatchbayError {
  /** Brand of `ConsoleHttpError`; see `PatchbayError.isInstance`. */
  static override readonly brand: symbol = Symbol.for('patchbay.error.console_http');

  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(codeOfStatus[status] ?? 'internal_error', message, options);
    this.name = 'ConsoleHttpError';
  }
}

/** What one API call gets: the URL, the path's captured parts, the JSON body (POST) and the response. */
export interface RouteInput {
  url: URL;
  params: string[];
  body: Record<string, unknown>;
  response: ServerResponse;
  csrfToken: string;
  /** Ends the request's session server-side and clears its cookie in this answer. */
  signOut(): void;
}

/** One API endpoint. POST routes change state: the server checks the CSRF token and Origin first. */
export interface ApiRoute {
  method: 'GET' | 'POST';
  path: RegExp;
  /** The JSON to answer with, or {@link streamed} when the route wrote the response itself. */
  run(input: RouteInput): Promise<unknown>;
}

/** Returned by a route that answered by itself (the event stream). */
export const streamed = Symbol('streamed');

const states: ProposalState[] = ['pending', 'approved', 'rejected', 'executed', 'expired'];

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

/** Maps the orchestrator's proposal errors to HTTP answers. */
function proposalHttpError(error: unknown, id: string): unknown {
  if (PatchbayError.isInstance(error) && error.code === 'proposal_not_found') {
    return new ConsoleHttpError(404, `No proposal with id "${id}".`);
  }
  if (PatchbayError.isInstance(error) && error.code === 'proposal_not_pending') {
    return new ConsoleHttpError(409, `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`);
  }
  return error;
}

/**
 * The console's API as a table: method, path, what it does. The server finds the route, refuses a
 * state change without the CSRF token and Origin, and answers with what `run` returns.
 */
export function createApiRoutes(backend: ConsoleBackend, feed: LiveFeed, decidedBy: string): ApiRoute[] {
  type ToolFacts = { description: string; effect: string };

  async function toolIndex(): Promise<Map<string, ToolFacts>> {
    const index = new Map<string, ToolFacts>();
    for (const connector of await backend.connectors()) {
      for (const tool of connector.tools)
        index.set(tool.name, { description: tool.description, effect: tool.effect });
    }
    return index;
  }

  function proposalView(proposal: Proposal, tools: Map<string, ToolFacts>): Record<string, unknown> {
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

  const subjectOf = (url: URL) => url.searchParams.get('subject') || backend.defaultSubject;
  const subjectIn = (body: Record<string, unknown>) => stringField(body, 'subject') ?? backend.defaultSubject;

  return [
    {
      method: 'GET',
      path: /^\/api\/session$/,
      run: async ({ csrfToken }) => ({
        csrf_token: csrfToken,
        subject: backend.defaultSubject,
        subjects: await knownSubjects(),
      }),
    },
    {
      // A POST like every state change, so a page elsewhere cannot sign the user out either.
      method: 'POST',
      path: /^\/api\/sign-out$/,
      run: async ({ signOut }) => {
        signOut();
        return { signed_out: true };
      },
    },
    {
      method: 'GET',
      path: /^\/api\/events$/,
      run: async ({ response }) => {
        feed.attach(response);
        return streamed;
      },
    },
    { method: 'GET', path: /^\/api\/proposals$/, run: ({ url }) => listProposals(url) },
    {
      method: 'GET',
      path: /^\/api\/connectors$/,
      async run({ url }) {
        const subject = subjectOf(url);
        const [items, connectors, policy] = await Promise.all([
          backend.connectorStatus(subject),
          backend.connectors(),
          backend.store.listPolicy(),
        ]);
        return {
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
        };
      },
    },
    {
      // Separate from /api/connectors: it starts every server, which the page should not do on each
      // live event, only when it opens, when the user changes and when asked.
      method: 'GET',
      path: /^\/api\/mcp-servers$/,
      async run({ url }) {
        const subject = subjectOf(url);
        if (!backend.mcpServers) return { subject, configured: false, servers: [] };
        return { subject, configured: true, servers: await backend.mcpServers(subject) };
      },
    },
    {
      method: 'GET',
      path: /^\/api\/audit$/,
      async run({ url }) {
        const after = Number(url.searchParams.get('after') ?? 0);
        return feed.auditRecords().filter((record) => record.seq > (Number.isFinite(after) ? after : 0));
      },
    },
    {
      method: 'GET',
      path: /^\/api\/context$/,
      async run({ url }) {
        const subject = subjectOf(url);
        const verify = url.searchParams.get('verify') === 'true';
        return { subject, ...(await backend.turnContext(subject, { verify })) };
      },
    },
    {
      method: 'POST',
      path: /^\/api\/proposals\/([^/]+)\/approve$/,
      async run({ params: [id] }) {
        try {
          const { envelope, proposal } = await backend.approve(id!, decidedBy);
          await feed.poll();
          return { envelope, proposal: proposal ? proposalView(proposal, await toolIndex()) : null };
        } catch (error) {
          throw proposalHttpError(error, id!);
        }
      },
    },
    {
      method: 'POST',
      path: /^\/api\/proposals\/([^/]+)\/reject$/,
      async run({ params: [id], body }) {
        const reason = stringField(body, 'reason', true).trim();
        if (!reason) throw new ConsoleHttpError(400, 'Give a reason for the rejection.');
        try {
          const rejected = await backend.reject(id!, reason, decidedBy);
          await feed.poll();
          return { proposal: proposalView(rejected, await toolIndex()) };
        } catch (error) {
          throw proposalHttpError(error, id!);
        }
      },
    },
    {
      method: 'POST',
      path: /^\/api\/connectors\/([^/]+)\/connect$/,
      async run({ params: [id], body }) {
        const connector = await connectorOf(id!);
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
        const outcome = await backend.connect(subjectIn(body), id!, credentials);
        // The backend redacts already; redacting again here keeps that true whatever backend is plugged in.
        return redactValue(outcome, Object.values(credentials));
      },
    },
    {
      method: 'POST',
      path: /^\/api\/connectors\/([^/]+)\/disconnect$/,
      run: async ({ params: [id], body }) => ({ removed: await backend.disconnect(subjectIn(body), id!) }),
    },
    {
      method: 'POST',
      path: /^\/api\/connectors\/([^/]+)\/(disable|enable)$/,
      async run({ params: [id, action], body }) {
        const scope = body.scope === 'user' ? subjectIn(body) : undefined;
        return { changed: await backend.setPolicy(action as 'disable' | 'enable', id!, scope) };
      },
    },
  ];
}
