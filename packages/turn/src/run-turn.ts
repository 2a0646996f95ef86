import { randomUUID } from 'node:crypto';
import type {
  LanguageModelV4,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4ToolCall,
} from '@ai-sdk/provider';
import type { Meter } from '@opentelemetry/api';
import {
  type Connector,
  canonicalJson,
  exceedsDepth,
  maxArgumentDepth,
  type StatusSnapshot,
  type StatusSource,
  type Thread,
  type ThreadStore,
  type ToolEffect,
  tooDeepMessage,
} from '@patchbay/connector';
import {
  type Envelope,
  type ErrorEnvelope,
  failure,
  interactiveErrorTypes,
  renderEnvelopeForModel,
  success,
  truncateForModel,
} from '@patchbay/envelope';
import type { Orchestrator } from '@patchbay/orchestrator';
import {
  assembleMessages,
  buildSystemPrompt,
  type CacheProvider,
  type ConnectorStatusWire,
  captureStatus,
  connectorStatusWire,
  exposedTools,
  type LiveVerificationOptions,
  type MessageLayout,
  refreshConnectorStatusToolName,
  renderTurnContext,
  stampMessage,
  toLanguageModelTools,
} from '@patchbay/protocol';
import type { AssistantContent, ModelMessage, ToolModelMessage, ToolResultPart } from 'ai';
import { toLanguageModelPrompt } from './model-prompt.js';
import {
  askUserReply,
  buildRetryGuidance,
  type InteractiveFailure,
  questionsOf,
  withQuestions,
} from './retry-guidance.js';
import { createTurnInstruments } from './turn-metrics.js';

/** Settings of the ask-for-input retry loop. */
export interface RetryOptions {
  /** Further model attempts after `needs_input` / `invalid_arguments` results. Default 3. */
  maxAttempts?: number;
  /** Temperature of every retry; when absent it rises by `temperatureStep` per attempt. */
  temperature?: number;
  /** Added per attempt to the turn's temperature (0.5 when the turn sets none). Default 0.2; capped at 1. */
  temperatureStep?: number;
  /**
   * `retry` (default): the model gets one guided chance to fill `needs_input` fields from what the
   * user already said. `ask`: a `needs_input` result ends the turn with its questions at once.
   */
  needsInput?: 'retry' | 'ask';
  /**
   * When true (default), a retried call whose value for a field the user had to supply does not
   * appear in anything the user wrote is not sent: the turn asks the user instead of running on an
   * invented argument.
   */
  requireUserGroundedInput?: boolean;
}

/** Arguments of {@link runTurn}. */
export interface RunTurnOptions {
  /** Any AI SDK language model (`LanguageModelV4`); called one step at a time. */
  model: LanguageModelV4;
  /** A thread id (history loaded from `threadStore`) or a thread with its stored messages. */
  thread: string | Thread<ModelMessage>;
  /** What the user wrote this turn. */
  message: string;
  /** Whose connectors: the user (or workspace) id the status and every call are for. */
  subject: string;
  /** The gate every tool call goes through. */
  orchestrator: Pick<Orchestrator, 'execute'> & Partial<Pick<Orchestrator, 'getTool'>>;
  /** Installed connectors: status, context, exposed tools. */
  connectors: readonly Connector[];
  statusSource: StatusSource;
  /** Who the agent is; first section of the static system prompt. */
  identity?: string;
  /** A complete static system prompt instead of `buildSystemPrompt({ identity })`. */
  systemPrompt?: string;
  /**
   * Adds the static connector catalog (every installed connector with everything it would enable) to
   * the built system prompt; the per-turn block then carries only the first `would_enable` entry.
   */
  catalog?: boolean;
  /**
   * Set when your own `systemPrompt` carries the catalog (`buildSystemPrompt({ catalog })`), so the
   * per-turn block carries only the first `would_enable` entry. Implied by `catalog`.
   */
  catalogInSystemPrompt?: boolean;
  /** Most model calls in one turn. Default 8. */
  maxSteps?: number;
  /** Temperature of the first attempt; the provider's default when absent. */
  temperature?: number;
  retry?: RetryOptions;
  /** Message layout; `tail` (default) keeps the history a cacheable prefix. */
  layout?: MessageLayout;
  /** Clock for capture times and message stamps. */
  now?: () => Date;
  /** Where the thread is loaded from (thread given by id) and appended to. */
  threadStore?: ThreadStore;
  /** Live credential checks during status capture. */
  verify?: LiveVerificationOptions;
  /** Cancels the model calls and tool calls of the turn. */
  signal?: AbortSignal;
  /**
   * Most characters one tool result puts into the prompt and the stored thread. A longer result is
   * cut, with a note of its full size; the full envelope stays in `trace.calls`. Default 20,000.
   */
  maxResultChars?: number;
  /** OpenTelemetry meter for the turn counters; the global provider's by default. */
  meter?: Meter;
}

/** One model call of a turn, with the exact prompt it was sent. */
export interface TurnStep {
  index: number;
  /** 0 for the first attempt, n for the n-th retry. */
  attempt: number;
  temperature: number | undefined;
  /** Names of the tools the model was offered in this call. */
  exposedTools: string[];
  /** The prompt exactly as passed to `doGenerate`. */
  prompt: LanguageModelV4Prompt;
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: string }[];
  finishReason: LanguageModelV4FinishReason['unified'];
}

/**
 * Why a call the model made was answered without being sent to the orchestrator. `too_deep`:
 * arguments nested deeper than `maxArgumentDepth` of `@patchbay/connector`.
 */
export type SkipReason = 'duplicate' | 'side_effect_done' | 'ungrounded_input' | 'invalid_json' | 'too_deep';

/** One tool call the model made and the envelope it received. */
export interface TurnCall {
  step: number;
  attempt: number;
  toolCallId: string;
  toolName: string;
  arguments: unknown;
  envelope: Envelope;
  /** Whether the call reached the orchestrator (or, for the meta-tool, a status capture ran). */
  sent: boolean;
  skipped?: SkipReason;
  correlationId?: string;
}

/** One retry the loop made: the envelopes it reacted to and the guidance it added. */
export interface TurnRetry {
  attempt: number;
  temperature: number | undefined;
  failures: { toolName: string; error_type: string; missing?: string[]; issues?: string[] }[];
  guidance: string;
}

/** Counters of one turn; the same quantities go to the OpenTelemetry meter. */
export interface TurnCounters {
  toolResults: number;
  interactiveErrors: number;
  /** `interactiveErrors / toolResults`, 0 without results. */
  interactiveErrorRate: number;
  retrySequences: number;
  retrySuccesses: number;
  /** `retrySuccesses / retrySequences`, undefined without retries. */
  retrySuccessRate: number | undefined;
}

/** Everything a turn did, for tests, evals and debugging. */
export interface TurnTrace {
  turnId: string;
  subject: string;
  threadId: string;
  /** Capture time of the status the turn started with. */
  capturedAt: string;
  /** The `<connector_status>` object the model saw at the start of the turn. */
  connectorStatus: Record<string, ConnectorStatusWire>;
  /** Tools offered at the start of the turn. */
  exposedTools: string[];
  steps: TurnStep[];
  calls: TurnCall[];
  retries: TurnRetry[];
  /** `replied`: the model's answer; `asked_user`: the loop handed the envelopes' questions to the user; `step_limit`: stopped at `maxSteps`. */
  outcome: 'replied' | 'asked_user' | 'step_limit';
  /** Questions the reply puts to the user on behalf of `needs_input` results. */
  questions: string[];
  counters: TurnCounters;
}

/** What {@link runTurn} returns. */
export interface TurnResult {
  reply: string;
  /** The thread with this turn's messages appended (stored form). */
  thread: Thread<ModelMessage>;
  trace: TurnTrace;
}

const defaultIdentity =
  'You are an assistant that helps the user get work done through the services they have connected.';

function cacheProviderOf(model: LanguageModelV4): CacheProvider {
  const provider = model.provider.toLowerCase();
  if (provider.startsWith('anthropic')) return 'anthropic';
  if (provider.startsWith('openai')) return 'openai';
  if (provider.startsWith('google')) return 'google';
  return 'other';
}

function parseInput(input: string): { ok: true; value: unknown } | { ok: false; tooDeep: boolean } {
  if (input.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return { ok: false, tooDeep: false };
  }
  // Kept as text: the thread store and providers serialise recursively and would overflow on it.
  if (exceedsDepth(value, maxArgumentDepth)) return { ok: false, tooDeep: true };
  return { ok: true, value };
}

function valueAt(args: unknown, path: string): unknown {
  let current: unknown = args;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Text the user wrote in a message, without the stamp and the per-turn context parts. */
function userText(message: ModelMessage): string {
  if (message.role !== 'user') return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .filter((text) => !/^\[\d{4}-\d{2}-\d{2}T[\d:]+Z\]$/.test(text) && !text.startsWith('<current_time>'))
    .join('\n');
}

/** Whether every value given for the envelope's missing fields appears in what the user wrote. */
function groundedInUserText(args: unknown, envelope: ErrorEnvelope, text: string): boolean {
  const haystack = text.toLowerCase();
  const grounded = (value: unknown): boolean => {
    if (value === undefined || value === null) return true; // still missing: the gate will ask again
    if (Array.isArray(value)) return value.every(grounded);
    if (typeof value === 'object') return true;
    const needle = String(value).toLowerCase().trim();
    // An empty value is not something the user said (every text "includes" the empty string).
    return needle !== '' && haystack.includes(needle);
  };
  return (envelope.missing ?? []).every((field) => grounded(valueAt(args, field.field)));
}

type ToolResultOutput = ToolResultPart['output'];

/** Default of {@link RunTurnOptions.maxResultChars}. */
const defaultMaxResultChars = 20_000;

/**
 * The tool result as the model reads it: the compact, redacted, meta-free envelope (correlation ids
 * would only cost tokens), as JSON; when longer than `maxChars`, its start as text with a note of
 * the full size. The full envelope stays in the trace.
 */
function modelOutputOf(envelope: Envelope, maxChars: number): ToolResultOutput {
  const rendered = renderEnvelopeForModel(envelope);
  if (rendered.length <= maxChars) return { type: 'json', value: JSON.parse(rendered) };
  return { type: 'text', value: truncateForModel(rendered, maxChars) };
}

/**
 * Runs one agent turn with Patchbay owning the loop: captures status, builds the static system
 * prompt and the messages, offers the exposed tools, and calls the model one step at a time through
 * `doGenerate`. Every tool call goes through `orchestrator.execute` (the meta-tool
 * `refresh_connector_status` captures status again). `needs_input` / `invalid_arguments` results
 * start the bounded retry loop: guidance from the envelopes, a raised temperature, no identical call
 * sent twice, no successful side effect repeated, and the envelopes' questions put to the user when
 * it stops. The turn's messages are stamped and appended to the thread.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const clock = options.now ?? (() => new Date());
  const maxSteps = options.maxSteps ?? 8;
  const maxResultChars = options.maxResultChars ?? defaultMaxResultChars;
  const retry = options.retry ?? {};
  const maxAttempts = retry.maxAttempts ?? 3;
  const temperatureStep = retry.temperatureStep ?? 0.2;
  const requireGrounded = retry.requireUserGroundedInput ?? true;
  const instruments = createTurnInstruments(options.meter);
  const turnId = randomUUID();
  const { connectors, subject } = options;

  const threadId = typeof options.thread === 'string' ? options.thread : options.thread.id;
  const history =
    typeof options.thread === 'string'
      ? // A thread store gives back the messages appended to it, and runTurn appends model messages.
        (((await options.threadStore?.load(threadId))?.messages ?? []) as ModelMessage[])
      : [...options.thread.messages];

  const capture = () =>
    captureStatus({
      connectors,
      source: options.statusSource,
      subject,
      now: clock,
      ...(options.verify ? { verify: options.verify } : {}),
    });
  let snapshot: StatusSnapshot = await capture();
  const builtWithCatalog = options.systemPrompt === undefined && options.catalog === true;
  const systemPrompt =
    options.systemPrompt ??
    buildSystemPrompt({
      identity: options.identity ?? defaultIdentity,
      ...(builtWithCatalog ? { catalog: connectors } : {}),
    });
  // Only a prompt that lists every would_enable entry lets the per-turn block drop all but the first.
  const catalogInSystemPrompt =
    builtWithCatalog || (options.systemPrompt !== undefined && options.catalogInSystemPrompt === true);
  const userMessage = stampMessage({ role: 'user', content: options.message }, clock());
  const base = assembleMessages({
    systemPrompt,
    history,
    userMessage,
    turnContext: renderTurnContext(snapshot, { connectors, catalogInSystemPrompt }),
    ...(options.layout ? { layout: options.layout } : {}),
    provider: cacheProviderOf(options.model),
  });
  const everythingUserWrote = [...history, userMessage].map(userText).join('\n');

  const effectOf = (toolName: string): ToolEffect | undefined => {
    for (const connector of connectors) {
      const tool = connector.tools.find((candidate) => candidate.name === toolName);
      if (tool) return tool.effect;
    }
    return options.orchestrator.getTool?.(toolName)?.effect;
  };

  const trace: TurnTrace = {
    turnId,
    subject,
    threadId,
    capturedAt: snapshot.capturedAt,
    connectorStatus: connectorStatusWire(snapshot, { connectors }),
    exposedTools: exposedTools(snapshot, connectors).map((tool) => tool.name),
    steps: [],
    calls: [],
    retries: [],
    outcome: 'replied',
    questions: [],
    counters: {
      toolResults: 0,
      interactiveErrors: 0,
      interactiveErrorRate: 0,
      retrySequences: 0,
      retrySuccesses: 0,
      retrySuccessRate: undefined,
    },
  };

  /** Messages of this turn in stored form (persisted). */
  const stored: ModelMessage[] = [userMessage];
  /** What follows the assembled base in the prompt: this turn's calls, results and retry guidance. */
  const tail: ModelMessage[] = [];
  /** Answers already given, by tool name and canonical arguments: an identical call is never sent twice. */
  const answered = new Map<string, Envelope>();
  /** Tools whose call had a side effect that succeeded in this turn. */
  const sideEffectsDone = new Set<string>();
  /**
   * Open retry sequences by tool: one envelope per failed call still waiting to be fixed, so two
   * failed calls of one tool keep both sets of questions.
   */
  const pending = new Map<string, ErrorEnvelope[]>();
  const openFailures = (): InteractiveFailure[] =>
    [...pending].flatMap(([toolName, envelopes]) => envelopes.map((envelope) => ({ toolName, envelope })));
  let attempt = 0;
  let reply: string | undefined;
  let askFailures: InteractiveFailure[] | undefined;

  /** Closes up to one open sequence per listed call (a tool listed twice closes two). */
  const closeSequences = (outcome: 'succeeded' | 'asked_user', tools: Iterable<string>) => {
    for (const tool of [...tools]) {
      const open = pending.get(tool);
      if (!open?.length) continue;
      open.shift();
      if (open.length === 0) pending.delete(tool);
      instruments.retrySequences.add(1, { tool, outcome });
      if (outcome === 'succeeded') trace.counters.retrySuccesses += 1;
    }
  };

  for (let index = 0; index < maxSteps && reply === undefined; index += 1) {
    const tools = exposedTools(snapshot, connectors);
    // Raised only while a retry is open; once the failing calls succeeded the turn goes on as normal.
    const temperature =
      attempt === 0 || pending.size === 0
        ? options.temperature
        : (retry.temperature ?? Math.min(1, (options.temperature ?? 0.5) + temperatureStep * attempt));
    const prompt = toLanguageModelPrompt([...base, ...tail]);
    const result = await options.model.doGenerate({
      prompt,
      tools: toLanguageModelTools(tools),
      toolChoice: { type: 'auto' },
      ...(temperature !== undefined ? { temperature } : {}),
      ...(options.signal ? { abortSignal: options.signal } : {}),
    });
    const text = result.content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    const toolCalls = result.content.filter(
      (part): part is LanguageModelV4ToolCall => part.type === 'tool-call',
    );
    trace.steps.push({
      index,
      attempt,
      temperature,
      exposedTools: tools.map((tool) => tool.name),
      prompt,
      text,
      toolCalls: toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
      finishReason: result.finishReason.unified,
    });

    if (toolCalls.length === 0) {
      reply = text;
      break;
    }

    const assistantContent: Exclude<AssistantContent, string> = [];
    if (text) assistantContent.push({ type: 'text', text });
    const parsedCalls = toolCalls.map((call) => ({ call, parsed: parseInput(call.input) }));
    for (const { call, parsed } of parsedCalls) {
      assistantContent.push({
        type: 'tool-call',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: parsed.ok ? parsed.value : call.input,
      });
    }
    const assistant = stampMessage({ role: 'assistant', content: assistantContent }, clock());
    const results: ToolModelMessage = { role: 'tool', content: [] };
    const failures: InteractiveFailure[] = [];
    const succeededTools: string[] = [];
    let ungrounded: InteractiveFailure | undefined;
    /** Calls sent in this step per tool whose side effect already happened: at most one per open failure. */
    const resent = new Map<string, number>();

    for (const { call, parsed } of parsedCalls) {
      const record: TurnCall = {
        step: index,
        attempt,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        arguments: parsed.ok ? parsed.value : call.input,
        envelope: success(null),
        sent: false,
      };
      const key = `${call.toolName}\u0000${parsed.ok ? canonicalJson(parsed.value) : call.input}`;
      const previousNeeds = (pending.get(call.toolName) ?? []).filter(
        (envelope) => envelope.error_type === 'needs_input',
      );
      if (!parsed.ok) {
        record.skipped = parsed.tooDeep ? 'too_deep' : 'invalid_json';
        record.envelope = failure('invalid_arguments', {
          issues: [
            {
              path: '',
              message: parsed.tooDeep
                ? tooDeepMessage(maxArgumentDepth)
                : 'The arguments were not valid JSON.',
            },
          ],
        });
      } else if (call.toolName === refreshConnectorStatusToolName) {
        snapshot = await capture();
        record.sent = true;
        record.envelope = success({
          captured_at: snapshot.capturedAt,
          connector_status: connectorStatusWire(snapshot, { connectors }),
        });
      } else if (answered.has(key)) {
        record.skipped = 'duplicate';
        record.envelope = answered.get(key)!;
      } else if (
        attempt > 0 &&
        sideEffectsDone.has(call.toolName) &&
        (resent.get(call.toolName) ?? 0) >= (pending.get(call.toolName)?.length ?? 0)
      ) {
        // A write that already succeeded is not run again; a retry of one of its failed siblings is.
        record.skipped = 'side_effect_done';
        record.envelope = failure('conflict', {
          userMessage: `${call.toolName} already ran in this turn; it is not run again.`,
        });
      } else if (
        requireGrounded &&
        previousNeeds.length > 0 &&
        !previousNeeds.some((need) => groundedInUserText(parsed.value, need, everythingUserWrote))
      ) {
        // The model filled a field only the user can supply with a value the user never gave.
        const need = previousNeeds[0]!;
        record.skipped = 'ungrounded_input';
        record.envelope = need;
        ungrounded = { toolName: call.toolName, envelope: need };
      } else {
        record.correlationId = `${turnId}:${call.toolCallId}`;
        record.sent = true;
        if (attempt > 0 && sideEffectsDone.has(call.toolName)) {
          resent.set(call.toolName, (resent.get(call.toolName) ?? 0) + 1);
        }
        record.envelope = await options.orchestrator.execute(call.toolName, parsed.value, {
          subject,
          correlationId: record.correlationId,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        answered.set(key, record.envelope);
        const effect = effectOf(call.toolName);
        if (record.envelope.ok && (effect === 'write' || effect === 'destructive')) {
          sideEffectsDone.add(call.toolName);
        }
      }
      trace.calls.push(record);
      trace.counters.toolResults += 1;
      const outcome = record.envelope.ok ? 'ok' : record.envelope.error_type;
      instruments.toolResults.add(1, { tool: call.toolName, outcome });
      if (!record.envelope.ok && interactiveErrorTypes.has(record.envelope.error_type)) {
        trace.counters.interactiveErrors += 1;
        instruments.interactiveErrors.add(1, { tool: call.toolName, error_type: record.envelope.error_type });
        if (record.skipped !== 'ungrounded_input') {
          failures.push({ toolName: call.toolName, envelope: record.envelope });
        }
      } else if (record.envelope.ok) {
        succeededTools.push(call.toolName);
      }
      results.content.push({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: modelOutputOf(record.envelope, maxResultChars),
      });
    }

    stored.push(assistant, results);
    tail.push(assistant, results);
    closeSequences('succeeded', succeededTools);

    if (ungrounded) {
      askFailures = [ungrounded, ...failures];
      break;
    }
    if (failures.length === 0) continue;

    const userOnly =
      retry.needsInput === 'ask' && failures.some((item) => item.envelope.error_type === 'needs_input');
    if (attempt >= maxAttempts || userOnly) {
      askFailures = failures;
      break;
    }
    // The failures of a tool called in this step are its open sequences now; new ones are counted.
    const failedNow = new Map<string, ErrorEnvelope[]>();
    for (const item of failures)
      failedNow.set(item.toolName, [...(failedNow.get(item.toolName) ?? []), item.envelope]);
    for (const [tool, envelopes] of failedNow) {
      trace.counters.retrySequences += Math.max(0, envelopes.length - (pending.get(tool)?.length ?? 0));
      pending.set(tool, envelopes);
    }
    attempt += 1;
    const guidance = buildRetryGuidance(failures, attempt, maxAttempts);
    trace.retries.push({
      attempt,
      temperature: retry.temperature ?? Math.min(1, (options.temperature ?? 0.5) + temperatureStep * attempt),
      failures: failures.map(({ toolName, envelope }) => ({
        toolName,
        error_type: envelope.error_type,
        ...(envelope.missing ? { missing: envelope.missing.map((field) => field.field) } : {}),
        ...(envelope.issues ? { issues: envelope.issues.map((issue) => issue.path) } : {}),
      })),
      guidance,
    });
    // Guidance is a user-role message: every provider accepts it after tool results, unlike a mid-prompt system message.
    tail.push({ role: 'user', content: [{ type: 'text', text: guidance }] });
  }

  if (askFailures) {
    trace.outcome = 'asked_user';
    trace.questions = questionsOf(askFailures);
    reply = askUserReply(askFailures);
  } else if (reply === undefined) {
    trace.outcome = 'step_limit';
    trace.questions = questionsOf(openFailures());
    reply = withQuestions(
      `I stopped after ${maxSteps} steps without finishing this request.`,
      trace.questions,
    );
  } else if (pending.size > 0) {
    // The model answered instead of retrying: whatever it wrote, the user gets the questions.
    trace.questions = questionsOf(openFailures());
    if (trace.questions.length > 0) {
      trace.outcome = 'asked_user';
      reply = withQuestions(reply, trace.questions);
    }
  }
  closeSequences(
    'asked_user',
    openFailures().map((item) => item.toolName),
  );

  trace.counters.interactiveErrorRate =
    trace.counters.toolResults === 0 ? 0 : trace.counters.interactiveErrors / trace.counters.toolResults;
  trace.counters.retrySuccessRate =
    trace.counters.retrySequences === 0
      ? undefined
      : trace.counters.retrySuccesses / trace.counters.retrySequences;

  stored.push(stampMessage({ role: 'assistant', content: reply }, clock()));
  await options.threadStore?.append(threadId, stored);
  return { reply, thread: { id: threadId, messages: [...history, ...stored] }, trace };
}
