import {
  createRedactor,
  type Envelope,
  failure,
  needsInput,
  type Redactor,
  redactValue,
} from '@patchbay/envelope';
import type { AgentCallContext } from '@patchbay/orchestrator';
import { type CallToolResult, CallToolResultSchema } from '../sdk.js';
import {
  abortedByCaller,
  classifyCallError,
  envelopeFromError,
  envelopeFromResult,
  neverReachedServer,
} from './call-result.js';
import type { McpServerConfig } from './config.js';
import { defaultMaxMessageBytes, delay, type McpConnection } from './connection.js';
import type { CallQuestions } from './elicitation.js';
import type { McpAgentOptions } from './mcp-agent-types.js';
import { isAuthorizationError } from './oauth-provider.js';
import { secretValuesOf } from './secret-values.js';
import { questionsFromResult } from './server-questions.js';
import type { ToolCatalog } from './tool-discovery.js';
import type { McpAgentTool } from './tool-mapping.js';

/** How much later than the gate's deadline the SDK's own timer fires for a call the gate made. */
const gateDeadlineMarginMs = 5_000;

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A signal for one call that follows the caller's until `release`; see `callWithRetry`. */
function perCallSignal(caller: AbortSignal): { signal: AbortSignal; release?: () => void } {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(caller.reason);
  if (caller.aborted) forwardAbort();
  else caller.addEventListener('abort', forwardAbort, { once: true });
  return { signal: controller.signal, release: () => caller.removeEventListener('abort', forwardAbort) };
}

/**
 * `tools/call` on one server: argument shape, the one retry of a harmless call, questions the
 * server asks (a "Question:" error or an elicitation), mapping to an envelope and redaction.
 */
export class ToolCalls {
  /** Calls waiting for their answer, for attributing an elicitation to its call. */
  readonly inFlight = new Set<CallQuestions>();
  private readonly declared: string[];
  private secrets: string[];
  private redactor: Redactor;
  private secretsKey = '';

  constructor(
    private readonly config: McpServerConfig,
    private readonly options: McpAgentOptions,
    private readonly connection: McpConnection,
    private readonly catalog: ToolCatalog,
    /** Secrets that change while the agent runs (OAuth tokens after a sign-in or refresh). */
    private readonly currentSecrets: () => readonly string[] = () => [],
  ) {
    this.declared = secretValuesOf(config);
    this.secrets = this.declared;
    this.redactor = createRedactor(this.secrets);
  }

  /** The redactor of the declared values plus the secrets in use now, rebuilt only when those change. */
  private currentRedactor(): Redactor {
    const extra = this.currentSecrets();
    const key = extra.join('\u0000');
    if (key !== this.secretsKey) {
      this.secretsKey = key;
      this.secrets = [...this.declared, ...extra];
      this.redactor = createRedactor(this.secrets);
    }
    return this.redactor;
  }

  /** Redacts the server's declared values from any text; for prompts and other server output. */
  redact<T>(value: T): T {
    return redactValue(value, this.currentRedactor());
  }

  /**
   * Not async itself: a call without elicitation runs in `callWithRetry`'s one promise, which also
   * adds the metadata (`answer`).
   */
  execute(toolName: string, args: unknown, context: AgentCallContext): Promise<Envelope> {
    const tool = this.catalog.get(toolName);
    if (!tool) {
      return Promise.resolve(
        this.finish(
          failure('tool_unavailable', {
            userMessage: `The MCP server "${this.config.name}" has no tool named "${toolName}".`,
          }),
          toolName,
          context.correlationId,
        ),
      );
    }
    if (args !== undefined && args !== null && !isRecord(args)) {
      return Promise.resolve(
        this.finish(
          failure('invalid_arguments', {
            issues: [{ path: '(input)', message: 'Arguments must be an object.' }],
          }),
          toolName,
          context.correlationId,
        ),
      );
    }
    // No elicitation handler, so no server can ask anything during the call: nothing to attribute.
    if (this.options.elicitation === undefined) return this.callWithRetry(tool, toolName, args, context);
    return this.callAsking(tool, toolName, args, context);
  }

  /** A call during which the server may ask the user (elicitation): it is attributed while in flight. */
  private async callAsking(
    tool: McpAgentTool,
    toolName: string,
    args: unknown,
    context: AgentCallContext,
  ): Promise<Envelope> {
    const questions: CallQuestions = {
      tool: toolName,
      subject: context.subject,
      signal: context.signal,
      asked: [],
      refusedSecrets: [],
    };
    this.inFlight.add(questions);
    try {
      return await this.callWithRetry(tool, toolName, args, context, questions);
    } finally {
      this.inFlight.delete(questions);
    }
  }

  /** The envelope the caller gets: what the server asked first, then metadata and redaction. */
  private answer(
    envelope: Envelope,
    toolName: string,
    context: AgentCallContext,
    questions: CallQuestions | undefined,
  ): Envelope {
    return this.finish(
      questions ? this.withQuestions(envelope, questions) : envelope,
      toolName,
      context.correlationId,
    );
  }

  /** What the server asked during the call outranks its answer: that answer is to a cancelled question. */
  private withQuestions(envelope: Envelope, questions: CallQuestions): Envelope {
    if (questions.asked.length > 0) return needsInput({ missing: questions.asked });
    if (questions.refusedSecrets.length > 0 && !envelope.ok) {
      return failure('upstream_error', {
        retryable: false,
        userMessage: `The MCP server "${this.config.name}" asked for a secret (${questions.refusedSecrets.join(', ')}), which Patchbay never collects in a conversation. Set it in the server's "env" or "headers" in mcp-servers.json.`,
      });
    }
    return envelope;
  }

  private async callWithRetry(
    tool: McpAgentTool,
    toolName: string,
    args: unknown,
    context: AgentCallContext,
    questions?: CallQuestions,
  ): Promise<Envelope> {
    const answer = (envelope: Envelope) => this.answer(envelope, toolName, context, questions);
    const connection = this.connection;
    // One budget for every attempt: a retry gets what the first attempt left, not a fresh timeout.
    // Through the gate (`signalPerCall`), the gate's deadline — never later than this server's
    // timeout — is the one that ends a hung call and names it; the SDK's own timer gets a margin so
    // the two never race to report the same hang two ways.
    const deadline =
      performance.now() + this.config.timeout + (context.signalPerCall === true ? gateDeadlineMarginMs : 0);
    for (let attempt = 0; ; attempt += 1) {
      const client = connection.client;
      if (!client) return answer(this.unavailable());
      const generation = connection.generation;
      // The SDK adds an abort listener to the signal it is given and never removes it, so a
      // long-lived caller signal would collect one per call; it gets a per-call signal instead,
      // unless the caller's is one already (the orchestrator's gate makes one for every call).
      const callSignal =
        context.signalPerCall === true ? { signal: context.signal } : perCallSignal(context.signal);
      connection.callsInFlight += 1;
      try {
        const result = await client.callTool(
          {
            name: tool.mcpName,
            arguments: (args ?? {}) as Record<string, unknown>,
            _meta: { 'patchbay/correlation_id': context.correlationId },
          },
          CallToolResultSchema,
          {
            signal: callSignal.signal,
            timeout: Math.max(1, Math.round(deadline - performance.now())),
            ...(context.onProgress ? { onprogress: context.onProgress } : {}),
          },
        );
        // With CallToolResultSchema the SDK has already parsed the result into the current shape.
        const parsed = result as CallToolResult;
        return answer(
          questionsFromResult(parsed, tool, args) ?? envelopeFromResult(parsed, this.config.name),
        );
      } catch (error) {
        if (connection.droppedForSize(generation)) {
          // The SDK dropped the connection over the size of an answer; asking again gets the same.
          return answer(
            failure('upstream_error', {
              retryable: false,
              userMessage: `The MCP server "${this.config.name}" sent an answer larger than ${formatBytes(this.options.maxMessageBytes ?? defaultMaxMessageBytes)}, so its connection was reset. Ask for less at once (a narrower query or one page).`,
            }),
          );
        }
        if (isAuthorizationError(error)) {
          // The refresh was refused mid-session: the server is down until the subject signs in again.
          this.connection.authorizationFailed(error);
          return answer(
            failure(
              error.code === 'mcp_authorization_rejected'
                ? 'invalid_credentials'
                : 'connector_not_configured',
              {
                retryable: false,
                userMessage: error.message,
              },
            ),
          );
        }
        const kind = classifyCallError(error, abortedByCaller(context.signal));
        if (kind === 'connection') void connection.probe();
        // A call that may have reached the server is repeated only when the tool says repeating is harmless.
        const harmless =
          tool.annotations?.readOnlyHint === true ||
          tool.annotations?.idempotentHint === true ||
          neverReachedServer(error);
        const retryDelayMs = this.options.retryDelayMs ?? 300;
        const timeLeft = deadline - performance.now() > retryDelayMs;
        if (attempt === 0 && (kind === 'connection' || kind === 'timeout') && harmless && timeLeft) {
          await delay(retryDelayMs, context.signal);
          if (!context.signal.aborted) continue;
        }
        return answer(envelopeFromError(error, kind, this.config.name, harmless));
      } finally {
        connection.callsInFlight -= 1;
        callSignal.release?.();
      }
    }
  }

  /**
   * Adds the call's metadata and removes secrets. Error text and questions come from the server
   * and are always redacted; success data only when this server was given values to hide, because
   * scanning every result costs more than the stdio round trip itself, and the orchestrator's gate
   * already removes token shapes from every result it relays.
   */
  private finish(envelope: Envelope, toolName: string, correlationId: string): Envelope {
    const withMeta: Envelope = {
      ...envelope,
      meta: { ...envelope.meta, tool: toolName, correlation_id: correlationId },
    };
    const redactor = this.currentRedactor();
    if (withMeta.ok && this.secrets.length === 0) return withMeta;
    return redactValue(withMeta, redactor);
  }

  private unavailable(): Envelope {
    const state = this.connection.status;
    const reason =
      state === 'stopped'
        ? 'is stopped'
        : state === 'starting'
          ? 'is still starting'
          : 'is not reachable right now; it is reconnecting';
    return failure('tool_unavailable', {
      userMessage: `The MCP server "${this.config.name}" ${reason}.`,
      retryable: state !== 'stopped',
    });
  }
}
