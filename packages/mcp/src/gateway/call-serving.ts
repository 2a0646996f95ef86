import type { Connector, StatusSnapshot } from '@patchbay/connector';
import {
  type Envelope,
  type ErrorType,
  failure,
  redactString,
  success,
  toEnvelope,
} from '@patchbay/envelope';
import type { CallProgress, ExecuteOptions, Orchestrator } from '@patchbay/orchestrator';
import { errorMessage } from '@patchbay/orchestrator/internal';
import {
  connectorStatusWire,
  refreshConnectorStatusToolName,
  type StatusBlockSettings,
} from '@patchbay/protocol';
import type { Logger } from 'pino';
import { sharedToolNameMessage } from '../client/shared-tool-name.js';
import type {
  CallToolRequest,
  CallToolResult,
  RequestHandlerExtra,
  ServerNotification,
  ServerRequest,
} from '../sdk.js';
import type { ToolListing } from './tool-listing.js';
import { correlationIdMetaKey, toCallToolResult } from './tool-result.js';

type Request = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Outcomes of another agent's tool that mean its agent may be down: recheck right after. */
const agentDownOutcomes: ReadonlySet<ErrorType> = new Set(['tool_unavailable', 'network_error']);

/** Outcomes that mean the subject's status changed (or the host's list is stale): recheck right after. */
const statusOutcomes: ReadonlySet<ErrorType> = new Set([
  'rate_limited',
  'invalid_credentials',
  'connector_not_configured',
  'permission_denied',
  'disabled_by_admin',
]);

/** Progress forwarding of a call whose host asked for none. */
const noProgress: { onProgress: undefined; done(): Promise<void> } = {
  onProgress: undefined,
  async done() {},
};

/** The meta of an answer the gateway gives itself (no tool ran). */
function ownAnswerMeta(tool: string, correlationId: string | undefined) {
  return { ...(correlationId === undefined ? {} : { correlation_id: correlationId }), tool };
}

/** What serving calls needs from the rest of the gateway. */
export interface CallServingDependencies {
  orchestrator: Pick<Orchestrator, 'execute'> & Partial<Pick<Orchestrator, 'toolConflicts'>>;
  connectors: readonly Connector[];
  listing: ToolListing;
  /** The subject of a request: a string at once for a gateway of one subject, else resolved. */
  subjectOf(request: Request): string | Promise<string>;
  capture(subject: string): Promise<StatusSnapshot>;
  recheck(related?: Request): Promise<boolean>;
  /** The overall time limit of one call, in ms (the tool's own applies when lower). */
  deadlineMs: number;
  /** How long a call of a name nobody serves yet waits for starting servers, in ms. */
  startupWaitMs: number;
  /** The deployment's status-block settings, for `refresh_connector_status`. */
  statusBlock: StatusBlockSettings;
  log: Logger;
}

/** Serves `tools/call`: the gate's envelope as an MCP result. */
export interface CallServing {
  handle(request: CallToolRequest, extra: Request): Promise<CallToolResult>;
  /** Resolves once no call is running and every answer went to the transport. */
  settled(): Promise<void>;
}

/** Creates the call server. */
export function createCallServing(dependencies: CallServingDependencies): CallServing {
  const { orchestrator, connectors, listing, log } = dependencies;

  async function refreshStatus(subject: string, correlationId: string | undefined): Promise<Envelope> {
    const started = performance.now();
    const meta = {
      ...(correlationId === undefined ? {} : { correlation_id: correlationId }),
      tool: refreshConnectorStatusToolName,
    };
    try {
      const snapshot = await dependencies.capture(subject);
      return {
        ...success({
          captured_at: snapshot.capturedAt,
          connector_status: connectorStatusWire(snapshot, { ...dependencies.statusBlock, connectors }),
        }),
        meta: { ...meta, duration_ms: Math.round((performance.now() - started) * 1000) / 1000 },
      };
    } catch (error) {
      log.error({ subject, error: redactString(errorMessage(error)) }, 'status capture failed');
      return { ...toEnvelope(error, { tool: refreshConnectorStatusToolName }), meta };
    }
  }

  const known = (name: string) => listing.isConnectorTool(name) || listing.isAgentTool(name);

  /**
   * Whether the gateway serves a name, waiting (bounded) for servers still starting: a host that
   * calls a tool it listed in an earlier session must not hear "no such tool" only because the
   * server is a second late. A known name is answered at once (no promise step on the call path);
   * undefined while servers are still starting after the wait.
   */
  function serves(name: string, signal: AbortSignal): true | Promise<boolean | undefined> {
    return known(name) || servesOnceStarted(name, signal);
  }

  async function servesOnceStarted(name: string, signal: AbortSignal): Promise<boolean | undefined> {
    if (listing.startingAgents().length === 0) return false;
    const starting = await listing.waitForStartingAgents(dependencies.startupWaitMs, signal);
    if (known(name)) return true;
    return starting.length > 0 ? undefined : false;
  }

  /** Forwards the agent's progress to the host under the host's token, in order, until the answer. */
  function progressForwarder(request: CallToolRequest, extra: Request) {
    const token = request.params._meta?.progressToken;
    if (token === undefined) return noProgress;
    let open = true;
    let last = Number.NEGATIVE_INFINITY;
    let sending: Promise<unknown> = Promise.resolve();
    let sent = false;
    return {
      onProgress(progress: CallProgress) {
        // MCP requires progress to grow, and no notification after the response.
        if (!open || !(progress.progress > last)) return;
        last = progress.progress;
        sent = true;
        sending = extra
          .sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: progress.progress,
              ...(progress.total === undefined ? {} : { total: progress.total }),
              ...(progress.message === undefined ? {} : { message: progress.message }),
            },
          })
          .catch(() => undefined);
      },
      /**
       * Closes the forwarder and lets the last report go out before the answer. The SDK's client
       * handles a notification a promise step after a response read at the same time, and forgets the
       * call's progress handler with the response: a report sent just before the answer was lost
       * (seen as 2 of 3 reports on a busy machine). Waiting for the sends and one turn of the event
       * loop puts the reports on the wire ahead of the answer, in their own write.
       */
      async done() {
        open = false;
        if (!sent) return;
        await sending;
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
  }

  // Calls running now, counted inside the handler (no promise of its own per call); `settled` waits
  // for the count to reach zero.
  let running = 0;
  let idle: (() => void) | undefined;
  let whenIdle: Promise<void> | undefined;

  async function callTool(request: CallToolRequest, extra: Request): Promise<CallToolResult> {
    running += 1;
    try {
      // The hot path takes no promise step it does not need: a fixed subject and a known tool are
      // answered in this tick.
      const given = dependencies.subjectOf(extra);
      const subject = typeof given === 'string' ? given : await given;
      const { name } = request.params;
      const args = request.params.arguments ?? {};
      const sentId = request.params._meta?.[correlationIdMetaKey];
      const correlationId = typeof sentId === 'string' && sentId !== '' ? sentId : undefined;
      const echo = correlationId !== undefined;
      if (name === refreshConnectorStatusToolName) {
        const envelope = await refreshStatus(subject, correlationId);
        await dependencies.recheck(extra);
        return toCallToolResult(envelope, echo);
      }
      const serving = serves(name, extra.signal);
      const served = serving === true || (await serving);
      if (served === undefined) {
        const starting = listing.startingAgents();
        return toCallToolResult(
          {
            ...failure('tool_unavailable', {
              userMessage: `Patchbay is still starting the MCP server${starting.length === 1 ? '' : 's'} ${starting.join(', ')}; ${name} may be one of their tools. Try again in a few seconds.`,
              retryable: true,
              retryAfterS: 5,
            }),
            meta: ownAnswerMeta(name, correlationId),
          },
          echo,
        );
      }
      if (!served) {
        // A name several servers declare is served by none of them: say so, and how to fix it, rather
        // than "no such tool" about a tool the host may see in the servers' own documentation.
        const shared = orchestrator.toolConflicts?.().find((conflict) => conflict.name === name);
        // Connector tools of connectors not given to this gateway are not part of it.
        const userMessage =
          shared !== undefined && shared.servedBy === undefined
            ? sharedToolNameMessage(name, shared.owners)
            : `There is no tool named ${name} here.`;
        return toCallToolResult(
          {
            ...failure('tool_unavailable', { userMessage }),
            meta: ownAnswerMeta(name, correlationId),
          },
          echo,
        );
      }
      const progress = progressForwarder(request, extra);
      let envelope: Envelope;
      try {
        const options: ExecuteOptions = {
          subject,
          signal: extra.signal,
          deadlineMs: dependencies.deadlineMs,
        };
        if (correlationId !== undefined) options.correlationId = correlationId;
        if (progress.onProgress) options.onProgress = progress.onProgress;
        envelope = await orchestrator.execute(name, args, options);
      } finally {
        if (progress.onProgress) await progress.done();
      }
      // The orchestrator wrote the new state back; hosts should re-list before the model's next step.
      if (!envelope.ok && statusOutcomes.has(envelope.error_type)) await dependencies.recheck(extra);
      // An MCP server that dropped mid-call leaves the list at once, not at the next interval.
      else if (!envelope.ok && agentDownOutcomes.has(envelope.error_type) && !listing.isConnectorTool(name))
        await dependencies.recheck(extra);
      return toCallToolResult(envelope, echo);
    } finally {
      running -= 1;
      if (running === 0 && idle) {
        idle();
        idle = undefined;
        whenIdle = undefined;
      }
    }
  }

  return {
    handle: callTool,
    async settled() {
      while (running > 0) {
        whenIdle ??= new Promise<void>((resolve) => {
          idle = resolve;
        });
        await whenIdle;
        // The SDK sends the answer a few promise steps after the handler settles; closing earlier drops it.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
