import type { LanguageModelV4, LanguageModelV4FinishReason, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { Meter } from '@opentelemetry/api';
import type { Connector } from '@patchbay/connector';
import type { StatusSource, Thread, ThreadStore } from '@patchbay/connector/ports';
import type { Envelope } from '@patchbay/envelope';
import type { Orchestrator } from '@patchbay/orchestrator';
import type {
  ConnectorStatusWire,
  LiveVerificationOptions,
  MessageLayout,
  StatusBlockSettings,
} from '@patchbay/protocol';
import type { ModelMessage } from 'ai';
import type { ConversationMemory, TurnMemoryTrace } from './turn-memory-source.js';

/** Settings of the ask-for-input retry loop. */
export interface RetryOptions {
  /**
   * Model attempts in all for a failing call, the first included (seed 001's "up to 3 attempts"):
   * an integer 1–21. Default 3: the first call and at most two guided retries.
   */
  totalAttempts?: number;
  /**
   * @deprecated Use `totalAttempts` (= `maxAttempts + 1`). Further attempts after the first,
   * 0–20; kept with its old meaning so existing settings make the same number of model calls.
   */
  maxAttempts?: number;
  /** Temperature of every retry (0–2); when absent it rises by `temperatureStep` per attempt. */
  temperature?: number;
  /** Added per attempt to the turn's temperature (0.5 when the turn sets none): 0–1. Default 0.2; capped at 1. */
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
  /**
   * The gate every tool call goes through. With `listAgents` and `listTools` the turn also offers its
   * function tools and the tools of MCP servers that are up, and shows the servers in the status
   * block; `health` is asked about agents that do not report `observedHealth()`.
   */
  orchestrator: Pick<Orchestrator, 'execute'> &
    Partial<
      Pick<
        Orchestrator,
        | 'getTool'
        | 'listAgents'
        | 'listTools'
        | 'health'
        | 'needsApproval'
        | 'listProposals'
        | 'approveAndExecute'
        | 'reject'
      >
    >;
  /** Installed connectors: status, context, exposed tools. */
  connectors: readonly Connector[];
  /** Where the subject's connections are read from, fresh every turn. */
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
  /**
   * The deployment's status-block settings (`@patchbay/protocol`'s `StatusBlockSettings`): the app's
   * own `setupUrls` per connector id — pass the orchestrator's `setupUrls` map here too, so the block
   * and the gate's envelopes point at the same page — and `includeDisabled` / `disabledReasons` to
   * show admin-disabled connectors with the seed's `reason`. Also used by `refresh_connector_status`.
   */
  statusBlock?: StatusBlockSettings;
  /** Most model calls in one turn: an integer 1–100. Default 8. */
  maxSteps?: number;
  /**
   * Most tool calls run from one model call: an integer 1–100. Default 16. Further calls of that step
   * are answered `rate_limited` without running, so one reply cannot fan out into unbounded writes.
   */
  maxCallsPerStep?: number;
  /**
   * Most characters one tool result puts into the prompt and the stored thread: an integer 1,000–
   * 10,000,000. Default 20,000. A longer result is cut, with a note of its full size; the full
   * envelope stays in `trace.calls`.
   */
  maxResultChars?: number;
  /**
   * Deadline of one model call in milliseconds: above 0, at most one hour. Default 120 000. A call
   * that has not answered by then is abandoned (even if the model ignores its abort signal) and the
   * turn ends `timed_out`.
   */
  modelTimeoutMs?: number;
  /** Temperature of the first attempt (0–2); the provider's default when absent. */
  temperature?: number;
  /** The ask-for-input retry loop. */
  retry?: RetryOptions;
  /** Message layout; `tail` (default) keeps the history a cacheable prefix. */
  layout?: MessageLayout;
  /** Clock for capture times and message stamps. */
  now?: () => Date;
  /** Where the thread is loaded from (thread given by id) and appended to. */
  threadStore?: ThreadStore;
  /** Live credential checks during status capture. */
  verify?: LiveVerificationOptions;
  /**
   * Cancels the turn: no model call starts after it fires, the model call in flight is abandoned (even
   * if the model ignores the signal), tools receive it, and the step's calls not yet sent are answered
   * without running. The turn then returns with outcome `aborted`; it does not throw.
   */
  signal?: AbortSignal;
  /** OpenTelemetry meter for the turn counters; the global provider's by default. */
  meter?: Meter;
  /**
   * Long-term memory (`turnMemory` of `@patchbay/memory` is one): its context goes into this turn's
   * per-turn context as a `<memory>` block (never the static system prompt), and the user message and
   * the reply are recorded after the turn. A memory failure never fails the turn: see `trace.memory`.
   */
  memory?: ConversationMemory;
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

/** Why a call the model made was answered without being sent to the orchestrator. */
export type SkipReason =
  | 'cancelled'
  | 'call_cap'
  | 'not_offered'
  | 'invalid_json'
  | 'too_deep'
  | 'duplicate'
  | 'side_effect_done'
  | 'ungrounded_input';

/**
 * How a turn ended. `replied`: the model's answer; `asked_user`: the loop handed the envelopes'
 * questions to the user; `step_limit`: stopped at `maxSteps`; `aborted`: the caller's signal fired;
 * `timed_out`: a model call outlived `modelTimeoutMs`.
 */
export type TurnOutcome = 'replied' | 'asked_user' | 'step_limit' | 'aborted' | 'timed_out';

/** One tool call the model made and the envelope it received. */
export interface TurnCall {
  step: number;
  attempt: number;
  toolCallId: string;
  /** The tool's real name (the gate's). */
  toolName: string;
  /** The name the model called it by, when it differs (a name model APIs refuse, mapped; see `toModelToolName`). */
  modelToolName?: string;
  /** The arguments as the model wrote them (parsed JSON, or the raw text when it was not JSON). */
  arguments: unknown;
  envelope: Envelope;
  /** Whether the call reached the orchestrator (or, for the meta-tool, a status capture ran). */
  sent: boolean;
  skipped?: SkipReason;
  correlationId?: string;
  /** The agent that served a sent call: `connector:<id>`, an MCP server's name or `function:<name>`. */
  owner?: string;
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
  /** Calls of tools the model was not offered in that step: answered `tool_unavailable`, never run. */
  notOffered: number;
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
  outcome: TurnOutcome;
  /** Questions the reply puts to the user on behalf of `needs_input` results. */
  questions: string[];
  counters: TurnCounters;
  /** What memory did, when the `memory` option was given. */
  memory?: TurnMemoryTrace;
}

/** What {@link runTurn} returns. */
export interface TurnResult {
  reply: string;
  /** The thread with this turn's messages appended (stored form). */
  thread: Thread<ModelMessage>;
  trace: TurnTrace;
}
