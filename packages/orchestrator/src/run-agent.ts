import type { Credentials } from '@patchbay/connector';
import { type Envelope, failure, mayHaveTakenEffect, redactString, toEnvelope } from '@patchbay/envelope';
import type { AgentCallContext } from './agent.js';
import { type CallState, errorMessage, type GateContext } from './gate-context.js';
import type { ToolEntry } from './registry.js';

/** What the gate hands the agent besides the validated arguments. */
export interface RunGrant {
  credentials?: Credentials | undefined;
  scopes?: readonly string[] | undefined;
}

// A call stopped after it started may already have changed something at the service. Only a tool
// that is harmless to repeat (a read, or declared idempotent) is answered as retryable; any other is
// answered as "may have happened", so no model or host re-sends a write on the strength of a timeout.
const stoppedWriteNote = ` ${mayHaveTakenEffect}`;

function harmlessToRepeat(tool: ToolEntry['tool']): boolean {
  return (
    tool.effect === 'read' ||
    tool.annotations?.readOnlyHint === true ||
    tool.annotations?.idempotentHint === true
  );
}

/** A retryable `timeout` the agent reported itself (an MCP server that did not answer) for a tool not harmless to repeat. */
function stoppedWrite(envelope: Envelope): Envelope {
  return envelope.ok || envelope.error_type !== 'timeout' || !envelope.retryable
    ? envelope
    : { ...envelope, retryable: false, user_message: `${envelope.user_message}${stoppedWriteNote}` };
}

/**
 * Runs the agent under the deadline and the caller's signal; a hung call is abandoned (its signal
 * aborted) and answered with `timeout`. A throw is mapped with `toEnvelope`, with `secrets` (the
 * grant's, as the pipeline read them) removed.
 */
export function runAgent(
  context: GateContext,
  call: CallState,
  entry: ToolEntry,
  value: unknown,
  grant: RunGrant,
  secrets: readonly string[],
): Promise<Envelope> {
  const { log } = context;
  const toolTimeoutMs = entry.tool.timeoutMs ?? context.limits.defaultTimeoutMs;
  // One budget for the whole call: the caller's cap (a gateway below its hosts' timeout) wins when lower.
  const timeoutMs =
    call.deadlineMs !== undefined && call.deadlineMs > 0
      ? Math.min(toolTimeoutMs, call.deadlineMs)
      : toolTimeoutMs;
  const controller = new AbortController();
  // One controller for timeout and caller cancel (AbortSignal.any costs more per call than a listener).
  const { signal } = controller;
  const envelopeContext = {
    connector: entry.tool.connectorId,
    tool: call.name,
    secrets,
    correlationId: call.correlationId,
    setupUrl: entry.tool.connectorId !== undefined ? context.setupUrls[entry.tool.connectorId] : undefined,
    // An agent's own throw of a connection dropped mid-request: the same rule as a stopped write.
    harmlessToRepeat: harmlessToRepeat(entry.tool),
  };
  const repeatable = envelopeContext.harmlessToRepeat;
  const mayHaveHappened = repeatable ? '' : stoppedWriteNote;
  // One promise settles the call: the agent's answer, the deadline or the caller's cancel, whichever
  // comes first (cheaper per call than racing two).
  return new Promise<Envelope>((resolve) => {
    let settled = false;
    let onCallerAbort: (() => void) | undefined;
    const settle = (envelope: Envelope) => {
      if (settled) return;
      settled = true;
      context.deadlines.clear(deadline);
      if (onCallerAbort) call.signal?.removeEventListener('abort', onCallerAbort);
      resolve(envelope);
    };
    const deadline = context.deadlines.add(timeoutMs, () => {
      controller.abort(new DOMException(`${call.name} exceeded ${timeoutMs} ms`, 'TimeoutError'));
      log.warn(
        { correlation_id: call.correlationId, tool: call.name, timeout_ms: timeoutMs },
        'tool call timed out',
      );
      settle(
        failure('timeout', {
          connector: entry.tool.connectorId,
          userMessage: `${call.name} did not finish within ${timeoutMs} ms and was stopped.${mayHaveHappened}`,
          retryable: repeatable,
        }),
      );
    });
    if (call.signal) {
      onCallerAbort = () => {
        controller.abort(call.signal?.reason);
        // The caller's signal, not the deadline: the person stopped it, so the model must not retry it
        // (`cancelled` is never retryable), even for a read.
        settle(
          failure('cancelled', {
            connector: entry.tool.connectorId,
            userMessage: `The request was cancelled before it finished.${mayHaveHappened}`,
          }),
        );
      };
      // No `once` option: `settle` removes the listener either way, and the option costs more per call
      // than the removal.
      if (call.signal.aborted) onCallerAbort();
      else call.signal.addEventListener('abort', onCallerAbort);
    }
    // The agent starts here, in this tick (a synchronous throw counts as a rejection).
    const agentContext: AgentCallContext = {
      subject: call.subject,
      signal,
      signalPerCall: true,
      correlationId: call.correlationId,
      credentials: grant.credentials,
      scopes: grant.scopes,
    };
    if (call.onProgress) agentContext.onProgress = call.onProgress;
    let started: Promise<unknown>;
    try {
      started = Promise.resolve(entry.record.agent.execute(call.name, value, agentContext));
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (result) => {
        if (settled) return;
        settle(
          repeatable
            ? toEnvelope(result, envelopeContext)
            : stoppedWrite(toEnvelope(result, envelopeContext)),
        );
      },
      (error: unknown) => {
        try {
          log.error(
            {
              correlation_id: call.correlationId,
              tool: call.name,
              error: redactString(errorMessage(error), secrets),
            },
            'agent threw',
          );
        } catch {
          // A logger that throws changes nothing: the call is answered all the same (and no
          // rejection is left unhandled).
        }
        if (!settled) settle(toEnvelope(error, envelopeContext));
      },
    );
  });
}
