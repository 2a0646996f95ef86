import { randomUUID } from 'node:crypto';
import type { StatusSnapshot } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { captureStatus, connectorStatusWire, stampMessage } from '@patchbay/protocol';
import type { ModelMessage } from 'ai';
import { concludeTurn } from './turn-end.js';
import { runSteps } from './turn-loop.js';
import { createTurnMemory } from './turn-memory.js';
import { createTurnInstruments } from './turn-metrics.js';
import { buildTurnPrompt } from './turn-prompt.js';
import { resolveTurnSettings } from './turn-settings.js';
import { offerTools } from './turn-tools.js';
import { createTurnRecorder } from './turn-trace.js';
import type { RunTurnOptions, TurnResult } from './turn-types.js';

export type {
  RetryOptions,
  RunTurnOptions,
  SkipReason,
  TurnCall,
  TurnCounters,
  TurnOutcome,
  TurnResult,
  TurnRetry,
  TurnStep,
  TurnTrace,
} from './turn-types.js';

async function loadHistory(options: RunTurnOptions, threadId: string): Promise<ModelMessage[]> {
  if (typeof options.thread !== 'string') return [...options.thread.messages];
  // A thread store gives back the messages appended to it, and runTurn appends model messages.
  return ((await options.threadStore?.load(threadId))?.messages ?? []) as ModelMessage[];
}

/**
 * Runs one agent turn with Patchbay owning the loop: captures status, builds the static system
 * prompt and the messages, offers the exposed tools, and calls the model one step at a time through
 * `doGenerate`. Every tool call is decided by the call decision table and, when sent, goes through
 * `orchestrator.execute` (the meta-tool `refresh_connector_status` captures status again).
 * `needs_input` / `invalid_arguments` results start the bounded retry loop: guidance from the
 * envelopes, a raised temperature, no identical call sent twice, no successful side effect repeated,
 * and the envelopes' questions put to the user when it stops. The signal and the model deadline stop
 * the turn between and during steps. The turn's messages are stamped and appended to the thread.
 * Throws a `PatchbayError` (`invalid_turn_options`) for limits out of range, before anything runs.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const settings = resolveTurnSettings(options);
  const clock = options.now ?? (() => new Date());
  const instruments = createTurnInstruments(options.meter);
  const turnId = randomUUID();
  const { connectors, subject } = options;
  const threadId = typeof options.thread === 'string' ? options.thread : options.thread.id;
  const history = await loadHistory(options, threadId);

  const capture = () =>
    captureStatus({
      connectors,
      source: options.statusSource,
      subject,
      now: clock,
      ...(options.verify ? { verify: options.verify } : {}),
    });
  let snapshot: StatusSnapshot = await capture();
  const prompt = buildTurnPrompt(options, history, snapshot, clock);
  const recorder = createTurnRecorder(
    {
      turnId,
      subject,
      threadId,
      capturedAt: snapshot.capturedAt,
      connectorStatus: connectorStatusWire(snapshot, { connectors }),
      exposedTools: offerTools(snapshot, connectors).names,
    },
    instruments,
  );
  const memory = createTurnMemory();
  const stored: ModelMessage[] = [prompt.userMessage];

  const ending = await runSteps({
    turnId,
    subject,
    orchestrator: options.orchestrator,
    connectors,
    signal: options.signal,
    clock,
    memory,
    recorder,
    maxResultChars: settings.maxResultChars,
    rules: {
      maxCallsPerStep: settings.maxCallsPerStep,
      requireUserGroundedInput: settings.requireUserGroundedInput,
      userText: prompt.userText,
    },
    async refreshStatus() {
      snapshot = await capture();
      return success({
        captured_at: snapshot.capturedAt,
        connector_status: connectorStatusWire(snapshot, { connectors }),
      });
    },
    model: options.model,
    settings,
    base: prompt.base,
    offer: () => offerTools(snapshot, connectors),
    stored,
    tail: [],
  });

  const conclusion = concludeTurn(ending, memory.openFailures(), settings);
  recorder.sequencesClosed(
    ending.kind === 'stopped' ? 'stopped' : 'asked_user',
    memory.closeSequences(memory.openFailures().map((item) => item.toolName)),
  );
  const trace = recorder.finish();
  trace.outcome = conclusion.outcome;
  trace.questions = conclusion.questions;

  stored.push(stampMessage({ role: 'assistant', content: conclusion.reply }, clock()));
  // One append at the end: a stopped turn stores its complete steps and the reply, never half a step.
  await options.threadStore?.append(threadId, stored);
  return { reply: conclusion.reply, thread: { id: threadId, messages: [...history, ...stored] }, trace };
}
