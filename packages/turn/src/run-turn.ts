import { randomUUID } from 'node:crypto';
import type { StatusSnapshot, StatusSource } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { captureStatus, connectorStatusWire, stampMessage } from '@patchbay/protocol';
import type { ModelMessage } from 'ai';
import { concludeTurn } from './turn-end.js';
import { runSteps } from './turn-loop.js';
import { createTurnMemory } from './turn-memory.js';
import { readTurnMemory, recordTurnMemory, withholdTools } from './turn-memory-source.js';
import { createTurnInstruments } from './turn-metrics.js';
import { buildTurnPrompt } from './turn-prompt.js';
import { resolveTurnSettings } from './turn-settings.js';
import { type AgentView, offerTools, viewAgents } from './turn-tools.js';
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

/** The status a turn shows: connectors from the status source, MCP servers and functions from the orchestrator. */
interface TurnStatus {
  snapshot: StatusSnapshot;
  agents: AgentView;
}

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

  // The subject's admin policy also covers MCP servers by name; read it from the same load as the status.
  let disabledIds: ReadonlySet<string> = new Set();
  const source: StatusSource = {
    async load(loaded) {
      const state = await options.statusSource.load(loaded);
      disabledIds = new Set(state.disabledConnectorIds);
      return state;
    },
    markRateLimited: (...args) => options.statusSource.markRateLimited(...args),
    markInvalidCredentials: (...args) => options.statusSource.markInvalidCredentials(...args),
  };
  const capture = async (): Promise<TurnStatus> => {
    const snapshot = await captureStatus({
      connectors,
      source,
      subject,
      now: clock,
      ...(options.verify ? { verify: options.verify } : {}),
    });
    const agents = await viewAgents(options.orchestrator, snapshot, disabledIds);
    return { snapshot, agents: withholdTools(agents, options.memory?.withheldTools) };
  };
  const wire = ({ snapshot, agents }: TurnStatus) =>
    connectorStatusWire(snapshot, { ...options.statusBlock, connectors, servers: agents.servers });
  let status = await capture();
  const remembered = options.memory
    ? await readTurnMemory(options.memory, subject, threadId, options.signal)
    : undefined;
  const prompt = buildTurnPrompt(options, history, status, clock, remembered?.block);
  const recorder = createTurnRecorder(
    {
      turnId,
      subject,
      threadId,
      capturedAt: status.snapshot.capturedAt,
      connectorStatus: wire(status),
      exposedTools: offerTools(status.snapshot, connectors, status.agents, options.statusBlock?.setupUrls)
        .names,
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
      status = await capture();
      return success({ captured_at: status.snapshot.capturedAt, connector_status: wire(status) });
    },
    model: options.model,
    settings,
    base: prompt.base,
    // Read again before every model call: a server that went down mid-turn loses its tools at once.
    offer: async () =>
      offerTools(
        status.snapshot,
        connectors,
        withholdTools(
          await viewAgents(options.orchestrator, status.snapshot, disabledIds),
          options.memory?.withheldTools,
        ),
        options.statusBlock?.setupUrls,
      ),
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
  if (options.memory && remembered) {
    // After the thread is stored: memory is best effort and its failures only reach the trace.
    await recordTurnMemory(
      options.memory,
      threadId,
      [
        { role: 'user', message: { role: 'user', content: options.message } },
        // Unstamped: memory records what was said, not the thread's time stamps.
        { role: 'assistant', message: { role: 'assistant', content: conclusion.reply } },
      ],
      remembered.trace,
    );
    trace.memory = remembered.trace;
  }
  return { reply: conclusion.reply, thread: { id: threadId, messages: [...history, ...stored] }, trace };
}
