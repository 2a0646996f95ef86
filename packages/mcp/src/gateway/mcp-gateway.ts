import type { Connector, StatusSnapshot } from '@patchbay/connector';
import type { StatusSource } from '@patchbay/connector/ports';
import { PatchbayError, redactString } from '@patchbay/envelope';
import { createRedactingLogger, type Orchestrator, type SecretSource } from '@patchbay/orchestrator';
import { errorMessage } from '@patchbay/orchestrator/internal';
import {
  buildSystemPrompt,
  captureStatus,
  type LiveVerificationOptions,
  refreshConnectorStatusToolName,
  type StatusBlockSettings,
} from '@patchbay/protocol';
import type { Logger } from 'pino';
import { useJsonLineReader } from '../client/json-line-reader.js';
import { readByShape } from '../client/read-by-shape.js';
import type { RequestHandlerExtra, Transport } from '../sdk.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  Server,
  type ServerNotification,
  type ServerRequest,
  StdioServerTransport,
} from '../sdk.js';
import { createCallServing } from './call-serving.js';
import { CredentialValues } from './credential-values.js';
import { serveRequest } from './serve-request.js';
import { refuseCursor, registerStatusResources } from './status-resources.js';
import { connectorStatusResourceUri, createStatusWatch } from './status-watch.js';
import { createToolListing } from './tool-listing.js';
import { answerUnreadableRequests } from './unreadable-requests.js';

export { connectorStatusPromptName } from './status-resources.js';
export { connectorStatusResourceUri } from './status-watch.js';
export { correlationIdMetaKey } from './tool-result.js';

/** What a gateway request handler knows about the request: HTTP headers, auth info, session id, `_meta`. */
export type McpGatewayRequest = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Settings of {@link createMcpGateway}. Give exactly one of `subject` and `resolveSubject`. */
export interface McpGatewayOptions {
  /**
   * Every call goes through its `execute`: status, scopes, schema, approval and timeout gates. With
   * `listTools` and `listAgents` the gateway also serves the tools of its other agents (wrapped
   * functions, MCP servers) whose agent is up; `health` answers for agents without a connection state.
   */
  orchestrator: Pick<Orchestrator, 'execute'> &
    Partial<Pick<Orchestrator, 'listTools' | 'listAgents' | 'getTool' | 'health' | 'toolConflicts'>>;
  /**
   * The connectors whose tools the gateway serves (the same ones the orchestrator serves); also the
   * connectors the `requires` of other tools can name.
   */
  connectors: readonly Connector[];
  /** Per-subject connections, admin policy and rate limits; read fresh for every list and recheck. */
  statusSource: StatusSource;
  /** The one subject every request is made for (a local user, as in `patchbay mcp`). */
  subject?: string;
  /** Derives the subject from each request (e.g. from `authInfo` or a header) for shared HTTP gateways. */
  resolveSubject?: (request: McpGatewayRequest) => string | Promise<string>;
  /**
   * How often the exposed tool set is checked for changes, in ms. Default 5000; 0 turns the timer off.
   * A status source that announces its changes (`WatchableStatusSource`) triggers a check at once;
   * the poll is then only the fallback for a lost announcement.
   */
  refreshIntervalMs?: number;
  /**
   * The deployment's status-block settings, as given to `runTurn`: the app's own `setupUrls` (pass
   * the orchestrator's map too), `includeDisabled` and `disabledReasons`. Used by the
   * `patchbay://context` resources and `refresh_connector_status`.
   */
  statusBlock?: StatusBlockSettings;
  /**
   * Overall time limit of one `tools/call`, in ms, retries included (a tool's own lower limit wins).
   * Default 50 000: MCP hosts built on the official SDKs give up on a request after 60 s and show
   * their own timeout error; 10 s of margin covers the status capture, the transport and a busy machine,
   * so the host reads our `timeout` envelope instead.
   */
  callDeadlineMs?: number;
  /**
   * How long the first `tools/list` (and a call of a tool not known yet) waits for MCP servers still
   * starting, in ms. Default 10 000. Hosts list once after `initialize`; a server that comes up later
   * is announced with `tools/list_changed`, and a call meanwhile answers a retryable `tool_unavailable`.
   */
  startupWaitMs?: number;
  /** Server name announced at initialization. Default `patchbay`. */
  name?: string;
  /** Server version announced at initialization. Default `0.0.0`. */
  version?: string;
  /** Instructions announced at initialization; by default the protocol's status and error rules. `false` for none. */
  instructions?: string | false;
  /** Checks stored credentials live when capturing status (TTL-cached). */
  verify?: LiveVerificationOptions;
  /** A pino logger; silent by default. On stdio, it must not write to stdout. */
  logger?: Logger;
  /**
   * Values that must never reach the logs (expanded environment values, a gateway token), read at
   * every log line. Stored credentials the gateway reads from the status source are added on their own.
   */
  secrets?: SecretSource;
  /** Clock for status capture, for tests. */
  now?: () => Date;
}

/** A status-aware MCP server for one session (one transport). */
export interface McpGateway {
  /** The SDK server; connect it to a transport (or use {@link McpGateway.connect}). */
  readonly server: Server;
  /** Connects the server to a transport. */
  connect(transport: Transport): Promise<void>;
  /**
   * Captures status again for every subject seen and sends `notifications/tools/list_changed` when a
   * subject's exposed tools changed (and `resources/updated` to subscribers when the status did).
   * Resolves to whether the tool list changed.
   */
  recheck(): Promise<boolean>;
  /** Resolves once no tool call is running and every answer went to the transport: close after it on end of input. */
  settled(): Promise<void>;
  /** Stops the recheck timer and closes the server. */
  close(): Promise<void>;
}

/** Default of {@link McpGatewayOptions.callDeadlineMs}. */
export const defaultCallDeadlineMs = 50_000;
/** Default of {@link McpGatewayOptions.startupWaitMs}. */
export const defaultStartupWaitMs = 10_000;

const gatewayIdentity = [
  'Your tools come from Patchbay, which serves only the connectors and tools this user can use right now.',
  'Over MCP you do not get a <connector_status> block with every message: read the',
  `${connectorStatusResourceUri} resource when your host offers it, or call ${refreshConnectorStatusToolName},`,
  'whenever you need to know what is connected, what could be set up, or why a tool is missing.',
  'The tool list itself changes when the status does.',
].join('\n');

/** The default instructions: who serves the tools, how to get the status, and the protocol's rules. */
function defaultInstructions(): string {
  return buildSystemPrompt({
    identity: gatewayIdentity,
    // Blocks that assume a fresh block every turn are left out: MCP hosts do not attach one.
    blocks: ['connector_protocol', 'capability_protocol', 'error_handling'],
  });
}

function valuesOf(source: SecretSource | undefined): Iterable<string> {
  return typeof source === 'function' ? source() : (source ?? []);
}

function checkOptions(options: McpGatewayOptions): void {
  if ((options.subject === undefined) === (options.resolveSubject === undefined)) {
    throw new PatchbayError(
      'invalid_gateway_options',
      'createMcpGateway needs exactly one of "subject" and "resolveSubject"',
    );
  }
  if (options.subject !== undefined && options.subject.trim() === '') {
    throw new PatchbayError('invalid_gateway_options', 'createMcpGateway: "subject" must not be empty');
  }
}

/**
 * Creates a status-aware MCP gateway: `tools/list` answers the tools exposed for the subject now
 * (connected connectors with granted scopes and satisfied `requires`, the orchestrator's other tools
 * whose agent is up and whose `requires` are met, plus `refresh_connector_status`),
 * `tools/call` goes through the orchestrator and answers with the envelope, and the host hears
 * `notifications/tools/list_changed` when the subject's status changes the list. Connectors disabled
 * by an admin appear in no list, resource or prompt. One gateway serves one session; create one per
 * HTTP session.
 *
 * Three parts, one job each: the listing (`tool-listing.ts`), call serving (`call-serving.ts`) and
 * the status watch (`status-watch.ts`); this function wires them to one SDK server.
 */
export function createMcpGateway(options: McpGatewayOptions): McpGateway {
  checkOptions(options);
  const { orchestrator, connectors } = options;
  const credentials = new CredentialValues();
  const statusSource = credentials.watch(options.statusSource);
  const configured = options.secrets;
  const log = createRedactingLogger({
    logger: options.logger,
    bindings: { component: 'mcp-gateway' },
    secrets: () => [...valuesOf(configured), ...credentials.values()],
  });
  const instructions =
    options.instructions === false ? undefined : (options.instructions ?? defaultInstructions());
  const startupWaitMs = options.startupWaitMs ?? defaultStartupWaitMs;

  const server = new Server(
    { name: options.name ?? 'patchbay', version: options.version ?? '0.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: false },
        prompts: { listChanged: false },
      },
      ...(instructions === undefined ? {} : { instructions }),
    },
  );

  /** A fixed subject at once (no promise step on the call path), else the resolver's answer. */
  function subjectOf(request: McpGatewayRequest): string | Promise<string> {
    return options.subject ?? resolvedSubject(request);
  }

  async function resolvedSubject(request: McpGatewayRequest): Promise<string> {
    let subject: string;
    try {
      subject = await options.resolveSubject!(request);
    } catch (error) {
      log.warn({ error: redactString(errorMessage(error)) }, 'could not resolve the subject of a request');
      throw new McpError(ErrorCode.InvalidRequest, 'Patchbay could not tell whom this request is for.');
    }
    if (typeof subject !== 'string' || subject.trim() === '') {
      throw new McpError(ErrorCode.InvalidRequest, 'Patchbay could not tell whom this request is for.');
    }
    return subject;
  }

  function capture(subject: string): Promise<StatusSnapshot> {
    return captureStatus({
      connectors,
      source: statusSource,
      subject,
      ...(options.now ? { now: options.now } : {}),
      ...(options.verify ? { verify: options.verify } : {}),
    });
  }

  async function notify(notification: ServerNotification, related?: unknown): Promise<void> {
    try {
      // Related to a request, the notification rides on that request's response stream (HTTP).
      if (related) await (related as McpGatewayRequest).sendNotification(notification);
      else await server.notification(notification);
    } catch (error) {
      log.debug(
        { error: redactString(errorMessage(error)), method: notification.method },
        'notification not sent',
      );
    }
  }

  const listing = createToolListing(orchestrator, connectors);
  const watch = createStatusWatch({
    connectors,
    // The caller's source itself: the credential-recording wrapper does not announce changes.
    statusSource: options.statusSource,
    subject: options.subject,
    capture,
    list: (snapshot) => listing.list(snapshot),
    listAgents: orchestrator.listAgents ? () => orchestrator.listAgents!() : undefined,
    notify,
    intervalMs: options.refreshIntervalMs ?? 5_000,
    log,
  });
  const calls = createCallServing({
    orchestrator,
    connectors,
    listing,
    subjectOf,
    capture,
    recheck: (related) => watch.recheck(related),
    deadlineMs: options.callDeadlineMs ?? defaultCallDeadlineMs,
    statusBlock: options.statusBlock ?? {},
    startupWaitMs,
    log,
  });

  // A message the SDK cannot read (a `params._meta` that is not an object, say) never reaches a
  // handler: it is logged, and answered with -32600 where its id is still known (see there).
  const unreadable = answerUnreadableRequests(log);
  server.onerror = (error) => unreadable.onerror(error);
  server.oninitialized = () => watch.start();
  server.onclose = () => watch.stop();

  serveRequest(server, ListToolsRequestSchema, async (request, extra) => {
    refuseCursor(request.params);
    const subject = await subjectOf(extra);
    watch.followAgents();
    // A host lists once after initialize: give servers that are coming up a bounded moment first.
    if (listing.startingAgents().length > 0) await listing.waitForStartingAgents(startupWaitMs, extra.signal);
    const snapshot = await capture(subject);
    const tools = await listing.list(snapshot);
    watch.remember(subject, tools, snapshot);
    return { tools };
  });
  serveRequest(server, CallToolRequestSchema, (request, extra) => calls.handle(request, extra));
  registerStatusResources(server, {
    connectors,
    subjectOf,
    capture,
    watch,
    statusBlock: options.statusBlock ?? {},
  });

  return {
    server,
    async connect(transport) {
      // Over stdio, the host's lines are read as JSON only and checked by the SDK's Protocol once (not
      // twice); a request it cannot read then still has its id, so it is answered, not only logged.
      if (transport instanceof StdioServerTransport) useJsonLineReader(transport);
      const before = transport.onmessage;
      await server.connect(transport);
      // A host's requests and notifications are read without the SDK's failed schema checks first.
      readByShape(server, transport, before);
      unreadable.follow(transport);
    },
    recheck: () => watch.recheck(),
    settled: () => calls.settled(),
    async close() {
      watch.stop();
      await server.close();
    },
  };
}
