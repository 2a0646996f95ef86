import type {
  AgentOutputItem,
  FunctionTool,
  Model,
  ToolErrorFormatter,
  ToolNotFoundBehavior,
} from '@openai/agents';
import { tool } from '@openai/agents';
import { failure } from '@patchbay/envelope';
import { createTurnSession, type StepPlan, type TurnSession, type TurnSessionOptions } from '@patchbay/turn';

/** Options of {@link createPatchbayAgentTools}: those of a turn session, plus who approves in the run. */
export interface PatchbayAgentToolsOptions extends TurnSessionOptions {
  /**
   * Recorded as the decider when a person approves a call at the run's interruption: default `subject`
   * (the user approves their own agent's actions).
   */
  approver?: string;
}

/** Patchbay for one user turn of an Agents run: tools, dynamic instructions and the run options to pass. */
export interface PatchbayAgentTools {
  /** The turn's session: the gate, the call table, the trace. */
  readonly session: TurnSession;
  /** Every tool Patchbay could offer, each enabled only in the model calls whose fresh status allows it. */
  readonly tools: FunctionTool[];
  /** The agent's `instructions`: the static system prompt, then this model call's fresh context block. */
  instructions(): Promise<string>;
  /**
   * Spread into `run(agent, input, { ...patchbay.runOptions })`: a call of a tool not offered now is
   * answered with Patchbay's envelope instead of ending the run, and a rejected approval reads as an
   * `approval_denied` envelope.
   */
  readonly runOptions: { toolNotFoundBehavior: ToolNotFoundBehavior; toolErrorFormatter: ToolErrorFormatter };
  /**
   * Wraps the agent's model (optional): a call of a tool not offered now is then traced with its
   * arguments, which the runner's tool-not-found path does not hand over.
   */
  traceModel(model: Model): Model;
  /** Every plan prepared so far, one per model call, in order. */
  readonly steps: readonly StepPlan[];
}

/**
 * Creates Patchbay's tools and instructions for one user turn of an `@openai/agents` run (and its
 * resumes after approvals): status is captured fresh once per model call, only runnable tools are
 * enabled, every call goes through the orchestrator gate, and destructive calls pause the run as an
 * interruption. Create a new one for every user turn.
 */
export async function createPatchbayAgentTools(
  options: PatchbayAgentToolsOptions,
): Promise<PatchbayAgentTools> {
  const session = createTurnSession(options);
  const approver = options.approver ?? options.subject;
  const steps: StepPlan[] = [];
  // The run loop asks for the tools (isEnabled) and then for the instructions before every model call.
  // The first of them captures status; the plan then stays current until the instructions were
  // rendered from it or a tool ran after it, so the next model call always sees a fresh capture and
  // one model call never captures twice.
  let current: Promise<StepPlan> | undefined;
  let used = true;
  const stepPlan = (): Promise<StepPlan> => {
    if (current === undefined || used) {
      used = false;
      current = session.prepareStep().then((plan) => {
        steps.push(plan);
        return plan;
      });
    }
    return current;
  };

  const callArguments = new Map<string, unknown>();
  /** The gate's proposal for each call the run paused on, by call id. */
  const proposals = new Map<string, string>();
  const remember = (output: readonly AgentOutputItem[]) => {
    for (const item of output) {
      if (item.type === 'function_call') callArguments.set(item.callId, parseArguments(item.arguments));
    }
  };

  const toolOutput = (output: unknown): string =>
    typeof output === 'string' ? output : JSON.stringify(output ?? null);

  const tools = (await session.allTools()).map((definition) =>
    tool({
      name: definition.name,
      description: definition.description,
      parameters: definition.inputJsonSchema as never,
      strict: false,
      // Asked before the run pauses: the gate makes its proposal now, so the person decides a real,
      // listed proposal (the CLI and the console show it too) and the approved call runs that one.
      needsApproval: async (_runContext, input, callId) => {
        if (!session.needsApproval(definition.name)) return false;
        const proposed = await session.propose(definition.name, input, {
          ...(callId !== undefined ? { toolCallId: callId } : {}),
        });
        if (callId !== undefined && proposed.proposalId !== undefined)
          proposals.set(callId, proposed.proposalId);
        return true;
      },
      isEnabled: async () => (await stepPlan()).activeTools.includes(definition.name),
      execute: async (input, runContext, details) => {
        const callId = details?.toolCall?.callId;
        // The runner only executes a tool that needs approval after a person approved this very call;
        // the gate then makes its proposal and runs it once in their name.
        const approved =
          definition.needsApproval &&
          callId !== undefined &&
          runContext?.isToolApproved({ toolName: definition.name, callId }) === true;
        const result = await session.call(definition.name, input, {
          ...(callId !== undefined ? { toolCallId: callId } : {}),
          ...(details?.signal ? { signal: details.signal } : {}),
          ...(approved ? { approvedBy: approver } : {}),
        });
        used = true;
        return toolOutput(result.output);
      },
    }),
  );

  const toolErrorFormatter: ToolErrorFormatter = async (args) => {
    if (args.kind === 'approval_rejected') {
      // The person said no in the run's own approval step: the gate's proposal is rejected too,
      // so it cannot be approved later from anywhere else.
      const proposalId = proposals.get(args.callId);
      if (proposalId !== undefined) {
        proposals.delete(args.callId);
        await session.decide(proposalId, { approved: false, decidedBy: approver }).catch(() => undefined);
      }
      return JSON.stringify(
        failure('approval_denied', { userMessage: 'The user rejected this action; it was not run.' }),
      );
    }
    // The runner did not find the tool because it is not enabled in this model call: the session
    // answers the call without running it (not offered, with what setting it up would take).
    const result = await session.call(args.toolName, callArguments.get(args.callId), {
      toolCallId: args.callId,
    });
    used = true;
    return toolOutput(result.output);
  };

  return {
    session,
    tools,
    steps,
    runOptions: { toolNotFoundBehavior: 'return_error_to_model', toolErrorFormatter },
    traceModel(model) {
      return {
        async getResponse(request) {
          const response = await model.getResponse(request);
          remember(response.output);
          return response;
        },
        async *getStreamedResponse(request) {
          for await (const event of model.getStreamedResponse(request)) {
            if (event.type === 'response_done') remember(event.response.output as AgentOutputItem[]);
            yield event;
          }
        },
        ...(model.getRetryAdvice ? { getRetryAdvice: model.getRetryAdvice.bind(model) } : {}),
      };
    },
    async instructions() {
      const plan = await stepPlan();
      used = true;
      const sections = [session.systemPrompt, plan.context];
      if (plan.askUser) {
        sections.push(
          `Do not call tools in this reply. Ask the user for what is missing:\n${plan.askUser.questions.map((question) => `- ${question}`).join('\n')}`,
        );
      }
      return sections.join('\n\n');
    },
  };
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
