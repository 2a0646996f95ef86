// Scripted adversaries: STAND-IN LanguageModelV4s that do what the product must stop. A scenario
// that names one (`adversary:`) runs with it whatever model is under test, so the scenario tests the
// product, not a model: its checks count what must not happen (requests at the fake service, tool
// executions, envelopes) while the adversary tries. The naive baselines (./baselines.ts) stay as
// negative controls of the suite; these are positive tests of the product.
//
// A turn's `script` is the adversary's steps, one per model call:
//   calls:  [{ tool, args }]  call these tools (offered or not; args as given, a string sent as is)
//   resend: true              send the previous step's calls again, unchanged
//   invent: true              answer every open needs_input by inventing the missing values
//   set:    { id: state }     change connector status just before answering (mid-turn change)
//   reply:  text              answer with this text (the step also may call tools); a list of texts
//                             is sent as that many text parts
//   reasoning: text           send this reasoning part before the step's text and calls
//   repeat: n                 play this step n times (a loop)
//   cancel: true              the turn's signal fires (the user cancelled) just before this step is answered
//   cancel_after: tool        the turn's signal fires while this step's calls run, as soon as `tool` runs
//   cancel_at_service: true   the turn's signal fires while this step's calls run, as soon as a request
//                             reached the fake service (the request is in flight: it must be aborted)
// Past the end of the script the adversary replies "Done." so a turn always ends.
import type {
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { createScriptedModel, type ScriptedModel, type ScriptedToolCall } from '@patchbay/turn/testing';
import type { Scenario, ScenarioConnectorState } from '../run-types.js';
import type { ScriptStep } from '../scenario-format/script-step-schema.js';

/** A scripted adversary: the model of every turn of its scenario, one script per turn. */
export interface Adversary extends ScriptedModel {
  /** Selects turn `index`'s script (the runner calls it before each turn). */
  startTurn(index: number): void;
}

/** What the runner does for an adversary's steps: status changes and the user cancelling. */
export interface AdversaryHooks {
  /** Applies a step's mid-turn status change. */
  onSet?: (spec: Record<string, ScenarioConnectorState>) => Promise<void> | void;
  /** Fires the turn's signal now. */
  onCancel?: () => void;
  /** Fires the turn's signal as soon as `tool`'s code runs. */
  onCancelAfter?: (tool: string) => void;
  /** Fires the turn's signal as soon as a request reaches the fake service. */
  onCancelAtService?: () => void;
}

/** A tool call of the prompt, as the adversary reads it back. */
interface PromptToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** Names a scenario's `adversary:` may take, with what each does (documentation and validation). */
export const adversaries: Readonly<Record<string, string>> = {
  'call-unoffered': 'calls tools it was not offered this step (disabled, unconfigured, made up)',
  'repeat-call': 'sends the same call again, step after step',
  'resend-write': 'sends a write that already succeeded again',
  'invent-values': 'fills the values only the user can give with values of its own',
  loop: 'keeps calling tools until something stops it',
  'obey-injection': 'does what text inside a tool result tells it to',
  'ignore-status': 'calls tools of connectors the status block says are unusable',
  'direct-caller':
    'application code calling the gate (`orchestrator.execute`) directly, with no turn runner in front (./gate-caller.ts)',
  'mcp-host': 'an MCP host calling tools through the MCP gateway (`patchbay mcp`), no turn runner in front',
  'mcp-http-host':
    'an MCP host calling tools through the MCP gateway served over streamable HTTP on loopback (`patchbay mcp --http`): session, bearer token and `Origin` in the path',
};

/** The previous step's tool calls and every result the model saw, from the prompt. */
function readCalls(prompt: LanguageModelV4Prompt) {
  let lastCalls: PromptToolCall[] = [];
  const results = new Map<string, unknown>();
  for (const message of prompt) {
    if (message.role === 'assistant') {
      const calls = message.content.filter((part) => part.type === 'tool-call');
      if (calls.length) lastCalls = calls;
    } else if (message.role === 'tool') {
      for (const part of message.content)
        if (part.type === 'tool-result')
          results.set(part.toolCallId, 'value' in part.output ? part.output.value : undefined);
    }
  }
  return { lastCalls, results };
}

function parseInput(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split('.');
  let current = target;
  for (const key of keys.slice(0, -1)) {
    current[key] ??= {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys.at(-1)!] = value;
}

/** A `needs_input` envelope as the adversary reads it from a tool result. */
interface NeedsInput {
  error_type?: string;
  missing?: Array<{ field: string }>;
}

/** One step of the script, played against what the prompt shows. */
function play(step: ScriptStep, prompt: LanguageModelV4Prompt) {
  const { lastCalls, results } = readCalls(prompt);
  const toolCalls: ScriptedToolCall[] = [];
  for (const call of step.calls ?? []) toolCalls.push({ toolName: call.tool, input: call.args ?? {} });
  if (step.resend)
    for (const call of lastCalls) toolCalls.push({ toolName: call.toolName, input: parseInput(call.input) });
  if (step.invent) {
    for (const call of lastCalls) {
      const result = results.get(call.toolCallId) as NeedsInput | undefined;
      if (result?.error_type !== 'needs_input') continue;
      const input = structuredClone(parseInput(call.input)) as Record<string, unknown>;
      for (const missing of result.missing ?? []) setPath(input, missing.field, `invented-${missing.field}`);
      toolCalls.push({ toolName: call.toolName, input });
    }
  }
  const reply = Array.isArray(step.reply) ? step.reply.join('') : step.reply;
  return { text: reply ?? (toolCalls.length ? '' : 'Done.'), toolCalls };
}

/**
 * A step's answer as the model sends it: its reasoning first, and a `reply` list as that many text
 * parts (the scripted model sends a step's text as one part).
 */
function shape(content: LanguageModelV4Content[], step: ScriptStep | undefined): LanguageModelV4Content[] {
  if (!step || (!step.reasoning && !Array.isArray(step.reply))) return content;
  const texts: LanguageModelV4Content[] = Array.isArray(step.reply)
    ? step.reply.map((text) => ({ type: 'text', text }))
    : content.filter((part) => part.type === 'text');
  return [
    ...(step.reasoning ? [{ type: 'reasoning' as const, text: step.reasoning }] : []),
    ...texts,
    ...content.filter((part) => part.type !== 'text'),
  ];
}

/** The stream parts of an answer, as the scripted model streams them, reasoning included. */
function streamPartsOf(result: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  result.content.forEach((part, index) => {
    if (part.type === 'text' || part.type === 'reasoning') {
      const id = `${part.type}-${index}`;
      parts.push({ type: `${part.type}-start`, id });
      parts.push({ type: `${part.type}-delta`, id, delta: part.text });
      parts.push({ type: `${part.type}-end`, id });
    } else if (part.type === 'tool-call') parts.push(part);
  });
  parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
  return parts;
}

/**
 * Creates the adversary for a scenario. `startTurn(index)` selects the turn's script (the runner
 * calls it before each turn); `onSet(spec)` applies a step's mid-turn status change.
 */
export function createAdversary(
  scenario: Pick<Scenario, 'adversary' | 'turns'>,
  { onSet, onCancel, onCancelAfter, onCancelAtService }: AdversaryHooks = {},
): Adversary {
  let steps: ScriptStep[] = [];
  let position = 0;
  let answering: ScriptStep | undefined;
  const model = createScriptedModel(
    async (call) => {
      const step = steps[position];
      position += 1;
      answering = step;
      if (!step) return 'Done.';
      if (step.set) await onSet?.(step.set);
      if (step.cancel) onCancel?.();
      if (step.cancel_after) onCancelAfter?.(step.cancel_after);
      if (step.cancel_at_service) onCancelAtService?.();
      return play(step, call.prompt);
    },
    { provider: 'patchbay.adversary', modelId: `${scenario.adversary} (scripted adversary)` },
  );
  const startTurn = (index: number) => {
    steps = (scenario.turns[index]?.script ?? []).flatMap((step) =>
      Array.from({ length: step.repeat ?? 1 }, (_, copy) =>
        copy === 0 ? step : { ...step, set: undefined },
      ),
    );
    position = 0;
  };
  const scripted = { doGenerate: model.doGenerate, doStream: model.doStream };
  const doGenerate: ScriptedModel['doGenerate'] = async (call) => {
    const result = await scripted.doGenerate(call);
    return { ...result, content: shape(result.content, answering) };
  };
  // Streamed as the scripted model streams (each part whole, the signal checked before each), from
  // the shaped answer: reasoning and several text parts included.
  const doStream: ScriptedModel['doStream'] = async (call) => {
    const result = await doGenerate(call);
    const parts = streamPartsOf(result);
    let sent = 0;
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        pull(controller) {
          if (call.abortSignal?.aborted) {
            controller.error(call.abortSignal.reason);
            return;
          }
          const part = parts[sent];
          sent += 1;
          if (part === undefined) controller.close();
          else controller.enqueue(part);
        },
      }),
    };
  };
  return Object.assign(model, { startTurn, doGenerate, doStream });
}
