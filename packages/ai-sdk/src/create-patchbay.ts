import type { MessageLayout } from '@patchbay/protocol';
import {
  createTurnSession,
  type SessionCallResult,
  type SessionTool,
  type StepPlan,
  type TurnCall,
  type TurnSession,
  type TurnSessionOptions,
} from '@patchbay/turn';
import {
  dynamicTool,
  type JSONSchema7,
  jsonSchema,
  type ModelMessage,
  type PrepareStepFunction,
  type ToolApprovalConfiguration,
  type ToolSet,
} from 'ai';
import { approvedByPerson, declinedByPerson } from './person-approval.js';
import { cacheProviderOf, placeStepContext } from './step-context.js';

/** Options of {@link createPatchbay}: the deployment's settings, shared by every turn it starts. */
export interface PatchbayOptions extends Omit<TurnSessionOptions, 'signal' | 'userText'> {
  /**
   * Where each step's context block goes: `tail` (default) joins it to the last user message, so the
   * history before it stays a cacheable prefix; `after-system` is the seed layout (right after the
   * system prompt, acknowledged).
   */
  layout?: MessageLayout;
  /**
   * Name the gate records on a proposal a person approved in the SDK's approval step. Default: the
   * subject, since in a chat the person approving is the user whose connectors these are.
   */
  approver?: string;
  /**
   * Passed on as `experimental_toolApprovalSecret`: the SDK signs each approval request and refuses
   * a replayed approval it did not issue. Set it whenever the history comes from a browser.
   */
  toolApprovalSecret?: string | Uint8Array;
  /** Receives each turn {@link Patchbay.prepareCall} starts, so an agent's trace can be read. */
  onTurn?: (turn: PatchbayTurn) => void;
}

/** Options of one turn. */
export interface PatchbayTurnOptions {
  /** Cancels the turn's calls: those not yet sent are answered without running. */
  signal?: AbortSignal;
  /**
   * Everything the user wrote in the conversation: a retried call that fills a field only the user
   * can answer with a value the user never wrote is then not sent.
   */
  userText?: string;
}

/** What `generateText`, `streamText` or an agent call takes, to be spread into its options. */
export interface PatchbaySettings {
  /** Patchbay's static system prompt (identity and protocol blocks), byte-stable across turns. */
  instructions: string;
  /** Every tool the turn could offer; `prepareStep` narrows them to the runnable ones per step. */
  tools: ToolSet;
  /** Fresh status, the context block and the runnable tools, before every model call. */
  prepareStep: PrepareStepFunction<ToolSet>;
  /** `user-approval` for the tools whose calls the gate waits on a person for. */
  toolApproval: ToolApprovalConfiguration<ToolSet, unknown>;
  /** The signing secret, when {@link PatchbayOptions.toolApprovalSecret} is set. */
  experimental_toolApprovalSecret?: string | Uint8Array;
}

/** One run of the SDK's loop with Patchbay wired in: its settings and its trace. */
export interface PatchbayTurn {
  /** Spread these into `generateText` / `streamText` for this run only. */
  readonly settings: PatchbaySettings;
  /** The turn's session: the gate's calls, the current plan, proposals to decide. */
  readonly session: TurnSession;
  /** Every step plan prepared so far, in order. */
  readonly steps: readonly StepPlan[];
  /** Every tool call so far, with its envelope (the session's trace). */
  readonly calls: readonly TurnCall[];
}

/** Patchbay for an app's own AI SDK loop. */
export interface Patchbay {
  /**
   * Starts one turn: a fresh session whose settings serve exactly one `generateText` / `streamText`
   * run. Call it per request; a resumed run (after an approval) is a new request and a new turn.
   */
  turn(options?: PatchbayTurnOptions): Promise<PatchbayTurn>;
  /**
   * For `new ToolLoopAgent({ model, prepareCall: patchbay.prepareCall })`: starts a new turn for
   * every `generate` / `stream` call and merges its settings into the call (reported to `onTurn`).
   */
  prepareCall<Call extends object>(call: Call): Promise<Call & PatchbaySettings>;
}

/** Kept apart from the status block so an earlier step's instruction is removed with its block. */
function askUserBlock(reply: string): string {
  return [
    '<ask_user>',
    'Do not call any tool now. Reply to the user with the following, in your own words, and keep every question:',
    reply,
    '</ask_user>',
  ].join('\n');
}

/**
 * Creates Patchbay for the AI SDK: `turn()` gives, per run, the tools (each executed by the
 * orchestrator's gate), a `prepareStep` that captures status fresh and offers only runnable tools,
 * and a `toolApproval` that routes the gate's approvals through the SDK's own approval flow.
 */
export function createPatchbay(options: PatchbayOptions): Patchbay {
  const {
    layout = 'tail',
    approver = options.subject,
    toolApprovalSecret,
    onTurn,
    ...sessionOptions
  } = options;

  async function turn(turnOptions: PatchbayTurnOptions = {}): Promise<PatchbayTurn> {
    const session = createTurnSession({
      ...sessionOptions,
      ...(turnOptions.signal ? { signal: turnOptions.signal } : {}),
      ...(turnOptions.userText !== undefined ? { userText: turnOptions.userText } : {}),
    });
    const steps: StepPlan[] = [];
    const placed = new Set<string>();
    const tools: ToolSet = {};
    // What the gate answered when asked for a proposal and it ran no proposal (bad arguments, or a
    // person had approved the call already): the model reads that answer, the gate is not asked twice.
    const answeredAtApproval = new Map<string, SessionCallResult>();
    const remember = (plan: StepPlan | undefined) => {
      if (plan !== undefined && !steps.includes(plan)) steps.push(plan);
    };

    const register = (definition: SessionTool) => {
      if (Object.hasOwn(tools, definition.name)) return;
      const { name } = definition;
      tools[name] = dynamicTool({
        description: definition.description,
        // No validator: the gate validates, so a bad call comes back as `invalid_arguments` with
        // retry guidance instead of the SDK's own error.
        inputSchema: jsonSchema(definition.inputJsonSchema as JSONSchema7),
        execute: async (input, { toolCallId, abortSignal, messages }) => {
          const answered = answeredAtApproval.get(toolCallId);
          answeredAtApproval.delete(toolCallId);
          if (answered !== undefined) return answered.output;
          const result = await session.call(name, input, {
            toolCallId,
            ...(abortSignal ? { signal: abortSignal } : {}),
            ...(approvedByPerson(messages, toolCallId) ? { approvedBy: approver } : {}),
          });
          // A call resumed after an approval runs before the first `prepareStep`: the session planned it.
          remember(session.plan);
          return result.output;
        },
      });
    };
    for (const definition of await session.allTools()) register(definition);

    const prepareStep: PrepareStepFunction<ToolSet> = async ({
      messages,
      instructions,
      model,
      stepNumber,
      initialMessages,
    }) => {
      const plan = await session.prepareStep();
      remember(plan);
      if (stepNumber === 0) await rejectDeclined(initialMessages);
      // The SDK reads the tool set at every step: a tool that appeared since (an MCP server came up)
      // is registered before it is made active.
      for (const definition of plan.tools) register(definition);
      const ownInstructions = typeof instructions === 'string' ? instructions : undefined;
      const step = placeStepContext({
        messages,
        instructions: ownInstructions ?? session.systemPrompt,
        context: plan.askUser ? `${plan.context}\n${askUserBlock(plan.askUser.reply)}` : plan.context,
        layout,
        provider: cacheProviderOf(model),
        placed,
      });
      return {
        activeTools: plan.activeTools,
        messages: step.messages,
        ...(ownInstructions !== undefined && step.instructions ? { instructions: step.instructions } : {}),
      };
    };

    /** A call a person declined in the SDK's approval step: the gate's pending proposal is rejected in their name. */
    async function rejectDeclined(history: readonly ModelMessage[]): Promise<void> {
      for (const declined of declinedByPerson(history)) {
        if (!Object.hasOwn(tools, declined.toolName)) continue;
        const proposed = await session.propose(declined.toolName, declined.input, {
          toolCallId: declined.toolCallId,
        });
        if (proposed.proposalId === undefined) continue;
        await session.decide(proposed.proposalId, {
          approved: false,
          reason: declined.reason ?? 'The user declined this action in the approval step; it was not run.',
          decidedBy: approver,
        });
      }
    }

    const toolApproval: ToolApprovalConfiguration<ToolSet, unknown> = async ({ toolCall, messages }) => {
      if (!session.needsApproval(toolCall.toolName)) return 'not-applicable';
      // Re-checked on resume: a person approved it already, and `execute` runs the gate's proposal.
      if (approvedByPerson(messages, toolCall.toolCallId)) return 'user-approval';
      // The gate's proposal exists from the moment the SDK pauses, so the CLI and console see it too.
      const proposed = await session.propose(toolCall.toolName, toolCall.input, {
        toolCallId: toolCall.toolCallId,
      });
      if (proposed.proposalId !== undefined && !proposed.envelope.ok) {
        return { type: 'user-approval', reason: proposed.envelope.user_message };
      }
      if (proposed.sent) answeredAtApproval.set(toolCall.toolCallId, proposed);
      return 'not-applicable';
    };

    return {
      settings: {
        instructions: session.systemPrompt,
        tools,
        prepareStep,
        toolApproval,
        ...(toolApprovalSecret !== undefined ? { experimental_toolApprovalSecret: toolApprovalSecret } : {}),
      },
      session,
      steps,
      get calls() {
        return session.calls;
      },
    };
  }

  return {
    turn,
    async prepareCall(call) {
      const started = await turn();
      onTurn?.(started);
      return { ...call, ...started.settings };
    },
  };
}
