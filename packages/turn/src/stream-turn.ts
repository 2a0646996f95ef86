import type { UIMessage, UIMessageChunk } from 'ai';
import { executeTurn, type TurnResumeOptions } from './run-turn.js';
import type { TurnEvent } from './turn-events.js';
import type { RunTurnOptions, TurnOutcome, TurnResult } from './turn-types.js';

/** Arguments of {@link streamTurn}: those of `runTurn`, with `message` optional when resuming with `approvals`. */
export type StreamTurnOptions = Omit<RunTurnOptions, 'message'> & {
  /** What the user wrote this turn; may be absent when the turn only carries approval decisions. */
  message?: string;
} & TurnResumeOptions;

/** Options of {@link TurnStream.toUIMessageStream}. */
export interface UIMessageStreamOptions {
  /** Id of the assistant message the stream writes (the AI SDK UI generates one when absent). */
  messageId?: string;
  /**
   * The text a client sees when the turn fails (a model error): by default a plain sentence, since an
   * error's message can carry a provider's raw response.
   */
  onError?: (error: unknown) => string;
}

/** A turn in progress: its events as they happen, its result, and the AI SDK UI message stream of it. */
export interface TurnStream extends AsyncIterable<TurnEvent> {
  /** The turn's result, as `runTurn` returns it; rejects when the turn fails (a model error). */
  readonly result: Promise<TurnResult>;
  /** Stops the turn: as the `signal` option does (complete steps kept, nothing half-written). */
  abort(reason?: unknown): void;
  /**
   * The turn as AI SDK UI message chunks (`useChat` renders them): text and reasoning deltas, each
   * tool call with its envelope, `tool-approval-request` for a call waiting for a person (its
   * `approvalId` is the Patchbay proposal id), `data-connector-status` at every capture, and
   * `data-questions` when the reply asks the user. Cancelling the stream aborts the turn.
   */
  toUIMessageStream(options?: UIMessageStreamOptions): ReadableStream<UIMessageChunk>;
  /** {@link TurnStream.toUIMessageStream} as a server-sent-events `Response` of the AI SDK UI stream protocol. */
  toUIMessageStreamResponse(init?: ResponseInit & UIMessageStreamOptions): Response;
}

/** The headers of the AI SDK UI message stream protocol (v1), as its clients expect them. */
const uiStreamHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
} as const;

/**
 * Runs a turn like `runTurn` and streams it: the model is called through `doStream` and every event
 * (text and reasoning deltas, tool calls, envelopes, approvals requested and decided, status
 * captures, questions) is reported as it happens. The gate, the call table, the retry loop, the trace
 * and the thread append are `runTurn`'s own. The turn starts at once; iterate the stream, read
 * `toUIMessageStream()`, or just await `result`. Events are buffered until read, so one reader sees
 * all of them: iterate it, or take one UI stream, not both.
 */
export function streamTurn(options: StreamTurnOptions): TurnStream {
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const buffered: TurnEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: { error: unknown } | undefined;
  const push = (event: TurnEvent) => {
    buffered.push(event);
    wake?.();
  };
  const result = (async () => {
    try {
      return await executeTurn({ ...options, signal }, push);
    } catch (error) {
      failure = { error };
      throw error;
    } finally {
      ended = true;
      wake?.();
    }
  })();
  // A caller that only reads events must not see an unhandled rejection: the iterator rethrows it.
  result.catch(() => {});

  async function* events(): AsyncGenerator<TurnEvent> {
    for (;;) {
      if (buffered.length > 0) {
        yield buffered.shift()!;
        continue;
      }
      if (ended) {
        if (failure) throw failure.error;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  }

  const stream: TurnStream = {
    result,
    abort(reason) {
      stop.abort(reason);
    },
    [Symbol.asyncIterator]: events,
    toUIMessageStream(streamOptions = {}) {
      const iterator = events();
      let awaitingApproval = false;
      const pending: UIMessageChunk[] = [
        { type: 'start', ...(streamOptions.messageId ? { messageId: streamOptions.messageId } : {}) },
      ];
      return new ReadableStream<UIMessageChunk>({
        async pull(controller) {
          while (pending.length === 0) {
            let next: IteratorResult<TurnEvent>;
            try {
              next = await iterator.next();
            } catch (error) {
              controller.enqueue({
                type: 'error',
                errorText: streamOptions.onError?.(error) ?? 'The turn failed.',
              });
              controller.close();
              return;
            }
            if (next.done) {
              controller.close();
              return;
            }
            if (next.value.type === 'approval-requested') awaitingApproval = true;
            const chunks = uiChunksOf(next.value);
            // Once a call waits for a person, the rest of the turn stays in that UI step: the AI SDK
            // UI resends approvals (lastAssistantMessageIsCompleteWithApprovalResponses) only when
            // the approval is in the message's last step, as its own loop leaves it.
            pending.push(
              ...(awaitingApproval
                ? chunks.filter((chunk) => chunk.type !== 'start-step' && chunk.type !== 'finish-step')
                : chunks),
            );
          }
          controller.enqueue(pending.shift()!);
        },
        cancel(reason) {
          // The client went away (closed tab, network): the turn stops as if its signal fired.
          stop.abort(reason);
        },
      });
    },
    toUIMessageStreamResponse(init = {}) {
      const { messageId, onError, ...responseInit } = init;
      const chunks = stream.toUIMessageStream({
        ...(messageId ? { messageId } : {}),
        ...(onError ? { onError } : {}),
      });
      const body = chunks
        .pipeThrough(
          new TransformStream<UIMessageChunk, string>({
            transform(chunk, controller) {
              controller.enqueue(`data: ${JSON.stringify(chunk)}\n\n`);
            },
            flush(controller) {
              controller.enqueue('data: [DONE]\n\n');
            },
          }),
        )
        .pipeThrough(new TextEncoderStream());
      const headers = new Headers(responseInit.headers);
      for (const [name, value] of Object.entries(uiStreamHeaders)) {
        if (!headers.has(name)) headers.set(name, value);
      }
      return new Response(body, { status: 200, ...responseInit, headers });
    },
  };
  return stream;
}

const finishReasons: Record<TurnOutcome, 'stop' | 'length' | 'other'> = {
  replied: 'stop',
  asked_user: 'stop',
  step_limit: 'length',
  aborted: 'other',
  timed_out: 'other',
};

/** The UI message chunks of one turn event (none for events a chat UI has no part for). */
export function uiChunksOf(event: TurnEvent): UIMessageChunk[] {
  switch (event.type) {
    case 'step-start':
      return [{ type: 'start-step' }];
    case 'step-finish':
      return [{ type: 'finish-step' }];
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'reasoning-end':
      return [{ type: event.type, id: event.id }];
    case 'text-delta':
    case 'reasoning-delta':
      return [{ type: event.type, id: event.id, delta: event.delta }];
    case 'status':
      return [
        {
          type: 'data-connector-status',
          data: { capturedAt: event.capturedAt, connectorStatus: event.connectorStatus, tools: event.tools },
        },
      ];
    case 'tool-call':
      return [
        {
          type: 'tool-input-available',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
          dynamic: true,
        },
      ];
    case 'tool-result':
      // A call waiting for a person gets its approval request instead of an output: the UI shows the
      // approval and the output arrives when the decision has been carried out.
      if (!event.envelope.ok && event.envelope.error_type === 'approval_required') return [];
      return [
        { type: 'tool-output-available', toolCallId: event.toolCallId, output: event.output, dynamic: true },
      ];
    case 'approval-requested':
      return [{ type: 'tool-approval-request', approvalId: event.proposalId, toolCallId: event.toolCallId }];
    case 'approval-decided':
      if (event.toolCallId === undefined) {
        return [{ type: 'data-approval', data: { proposalId: event.proposalId, output: event.output } }];
      }
      return event.approved
        ? [
            {
              type: 'tool-output-available',
              toolCallId: event.toolCallId,
              output: event.output,
              dynamic: true,
            },
          ]
        : [{ type: 'tool-output-denied', toolCallId: event.toolCallId }];
    case 'question':
      return [{ type: 'data-questions', data: { questions: event.questions } }];
    case 'reply':
      if (event.unstreamed === '') return [];
      return [
        { type: 'text-start', id: 'reply' },
        { type: 'text-delta', id: 'reply', delta: event.unstreamed },
        { type: 'text-end', id: 'reply' },
      ];
    case 'turn-finish':
      return event.outcome === 'aborted'
        ? [{ type: 'abort', reason: 'The turn was cancelled.' }]
        : [{ type: 'finish', finishReason: finishReasons[event.outcome] }];
    case 'turn-start':
      return [];
  }
}

/**
 * The approval decisions in the messages an AI SDK chat client sends back (`addToolApprovalResponse`
 * puts them on the last assistant message's tool parts): one per part in state
 * `approval-responded`, its approval id being the Patchbay proposal id. Pass them to
 * {@link streamTurn}'s `approvals`; the gate decides only proposals of the turn's subject.
 */
export function approvalsFromUIMessages(
  messages: readonly UIMessage[],
): { proposalId: string; approved: boolean; reason?: string; toolCallId: string }[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return [];
  const decisions: { proposalId: string; approved: boolean; reason?: string; toolCallId: string }[] = [];
  for (const part of last.parts) {
    if (!('toolCallId' in part) || !('state' in part) || part.state !== 'approval-responded') continue;
    const approval = (part as { approval?: { id: string; approved: boolean; reason?: string } }).approval;
    if (!approval) continue;
    decisions.push({
      proposalId: approval.id,
      approved: approval.approved,
      ...(approval.reason ? { reason: approval.reason } : {}),
      toolCallId: part.toolCallId,
    });
  }
  return decisions;
}

/** The text of the last message when the user wrote it (a new turn), else undefined (a resumed one). */
export function lastUserText(messages: readonly UIMessage[]): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user') return undefined;
  return last.parts
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join('');
}
