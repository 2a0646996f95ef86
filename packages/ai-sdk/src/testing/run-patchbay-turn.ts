import type { StepPlan, TurnCall } from '@patchbay/turn';
import type { FrameworkTurnOptions, FrameworkTurnRun } from '@patchbay/turn/testing';
import {
  generateText,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  type ToolApprovalResponse,
} from 'ai';
import { createPatchbay } from '../create-patchbay.js';

/** The AI SDK language-model interface (spec v4), the one the SDK's loop drives. */
export type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: 'v4' }>;

/** What one user turn through the AI SDK's loop did: the runner contract of `@patchbay/turn/testing`. */
export type PatchbayTurnRun = FrameworkTurnRun;

/** Options of {@link runPatchbayTurn}: the runner contract of `@patchbay/turn/testing`. */
export interface RunPatchbayTurnOptions extends FrameworkTurnOptions {
  /**
   * Cancels the turn: calls not yet sent are answered without running, the SDK stops, and the run
   * returns what it had (as `runTurn` returns an aborted turn instead of throwing).
   */
  signal?: AbortSignal;
}

/**
 * Runs one user turn through the AI SDK's own loop (`generateText`) with `@patchbay/ai-sdk` wired in,
 * the way a chat app does: when the SDK pauses on tool approvals, `approve` decides each one and the
 * loop is resumed with a new request whose history carries the `tool-approval-response` parts (a new
 * Patchbay turn, as in an app). The model gets the system prompt, the messages with the context block
 * and the offered tools exactly as the SDK sends them to `doGenerate`. For the evals' runner matrix.
 */
export async function runPatchbayTurn(options: RunPatchbayTurnOptions): Promise<PatchbayTurnRun> {
  const patchbay = createPatchbay({
    subject: options.subject,
    orchestrator: options.orchestrator,
    connectors: options.connectors,
    statusSource: options.statusSource,
    ...(options.statusBlock ? { statusBlock: options.statusBlock } : {}),
    ...(options.identity !== undefined ? { identity: options.identity } : {}),
    ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const calls: TurnCall[] = [];
  const steps: StepPlan[] = [];
  let messages: ModelMessage[] = [
    ...(options.history ?? []).map((message): ModelMessage => ({ ...message })),
    { role: 'user', content: options.message },
  ];
  // Everything the user wrote: the grounding rule checks values only the user can give against it.
  const userText = [
    ...(options.history ?? []).filter((message) => message.role === 'user').map((message) => message.content),
    options.message,
  ].join('\n');
  let stepsLeft = options.maxSteps ?? 8;
  for (;;) {
    const turn = await patchbay.turn({ userText, ...(options.signal ? { signal: options.signal } : {}) });
    let result: Awaited<ReturnType<typeof generateText>>;
    try {
      result = await generateText({
        model: options.model,
        messages,
        stopWhen: stepCountIs(stepsLeft),
        ...(options.signal ? { abortSignal: options.signal } : {}),
        ...turn.settings,
      });
    } catch (error) {
      if (options.signal?.aborted !== true) throw error;
      return {
        reply: '',
        calls: [...calls, ...turn.calls],
        steps: [...steps, ...turn.steps],
        pendingApprovals: [],
      };
    }
    calls.push(...turn.calls);
    steps.push(...turn.steps);
    stepsLeft -= result.steps.length;
    const requests = result.content.filter((part) => part.type === 'tool-approval-request');
    const asked = requests.map((request) => ({
      toolName: request.toolCall.toolName,
      input: request.toolCall.input,
    }));
    if (requests.length === 0 || options.approve === undefined || stepsLeft <= 0) {
      // Undecided either way: no person to ask, or no step left to resume into.
      return { reply: result.text, calls, steps, pendingApprovals: asked };
    }
    const responses: ToolApprovalResponse[] = [];
    for (const [index, request] of requests.entries()) {
      responses.push({
        type: 'tool-approval-response',
        approvalId: request.approvalId,
        approved: await options.approve(asked[index]!),
      });
    }
    messages = [...messages, ...result.response.messages, { role: 'tool', content: responses }];
  }
}
