// The offline reference agent: a STAND-IN for a real model, used when PATCHBAY_EVAL_MODEL is unset.
// It is a rule-based LanguageModelV4 (built on createScriptedModel) that reads only what a real model
// would get: the system prompt (with its connector catalog), the <connector_status> block, the
// tools it is offered, the conversation and the tool results. It follows the Patchbay protocol by
// rules, so the suite can run without network or keys. It proves the harness and the protocol, not
// the quality of any model. The naive baselines in ./baselines.ts reuse its parts with one rule broken.
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { createScriptedModel, type ScriptedReply, type ScriptedToolCall } from '@patchbay/turn/testing';
import { extractArguments, intentsOf, nameOf } from './reference-intents.js';
import { type OfferedTool, type PromptView, readPrompt, words } from './reference-prompt.js';
import {
  capabilityReply,
  memoryNote,
  statementAboutUser,
  statusSentence,
  summarize,
  unavailableSentence,
} from './reference-replies.js';

export { extractArguments, intentsOf, scoreTool } from './reference-intents.js';
export { type PromptView, readPrompt } from './reference-prompt.js';
export { capabilityReply, memoryNote } from './reference-replies.js';

/** What one step of the agent answers: text, or tool calls (and text). */
export type StepAnswer = string | ScriptedReply;

/** The behaviours a naive baseline switches: each rule left out is the reference agent's own. */
export interface ReferenceRules {
  /** Call a tool that fits the request even when it is not offered. */
  callUnexposed?: boolean;
  /** The input schema of a tool that is not offered (with `callUnexposed`). */
  schemaOf?: (toolName: string) => OfferedTool['inputSchema'];
  /** The answer to "what can you do?". */
  capabilities?: (view: PromptView) => string;
  /** The answer when no tool fits the request. */
  onNoIntent?: (view: PromptView) => StepAnswer;
  /** The sentences about requested tools that are not offered. */
  unavailableNotes?: (view: PromptView) => string[];
  /** The answer to retry guidance; undefined goes on with the reference agent's. */
  onRetry?: (view: PromptView) => StepAnswer | undefined;
}

const capabilityQuestion =
  /\b(what can you do|what are you able|what else can you|capabilit|which (services|tools|integrations|connectors)|what do you (support|connect))/i;
const checkConnection =
  /\b(just (connected|set up|fixed|reconnected)|check (if|whether|my|the) .*connect|is (\w+ )?(still )?connected|verify .*connection)/i;

/**
 * The answer to retry guidance: the calls again with what the envelopes say fixed, or the user asked
 * for what only they know. It never invents a value: `needs_input` goes back to the user as questions.
 */
function answerRetry(view: PromptView, rules: ReferenceRules): StepAnswer {
  const reply = rules.onRetry?.(view);
  if (reply) return reply;
  const fixed: ScriptedToolCall[] = [];
  const questions: string[] = [];
  for (const toolCall of view.calls) {
    const envelope = view.results.get(toolCall.toolCallId);
    if (!envelope || envelope.ok) continue;
    if (envelope.error_type === 'invalid_arguments') {
      const args = { ...(toolCall.input as Record<string, unknown>) };
      for (const issue of envelope.issues ?? []) {
        const value = args[issue.path];
        if (typeof value === 'string') {
          const cleaned = value.replace(/^#/, '').trim().toLowerCase();
          args[issue.path] =
            /expected number/i.test(issue.message) && /^\d+$/.test(cleaned) ? Number(cleaned) : cleaned;
        }
      }
      if (JSON.stringify(args) !== JSON.stringify(toolCall.input))
        fixed.push({ toolName: toolCall.toolName, input: args });
    } else if (envelope.error_type === 'needs_input') {
      for (const field of envelope.missing ?? []) questions.push(field.question);
    }
  }
  if (fixed.length && questions.length === 0) return { toolCalls: fixed };
  if (questions.length)
    return `Before I can do that I need a bit more information:\n${questions.map((q) => `- ${q}`).join('\n')}`;
  return 'I could not complete that request with the details given. Could you tell me exactly what you want?';
}

/** After this turn's calls: what each returned, what is not available, what memory holds. */
function reportResults(view: PromptView, rules: ReferenceRules): StepAnswer {
  const lines: string[] = [];
  for (const toolCall of view.calls) {
    if (toolCall.toolName === 'refresh_connector_status') continue;
    const envelope = view.results.get(toolCall.toolCallId);
    if (envelope) lines.push(summarize(toolCall.toolName, envelope, view));
  }
  const refreshed = view.calls.find((toolCall) => toolCall.toolName === 'refresh_connector_status');
  if (refreshed) {
    const fresh = view.results.get(refreshed.toolCallId)?.data as
      | { connector_status?: PromptView['status'] }
      | undefined;
    if (fresh?.connector_status) view.status = fresh.connector_status;
  }
  if (refreshed && view.calls.length === 1) {
    // With fresh status, go on with what the user asked.
    const next = planFor(view, rules, { afterRefresh: true });
    if (typeof next === 'object' && next.toolCalls?.length) return next;
    if (typeof next === 'string') return next;
    return Object.keys(view.status)
      .map((id) => statusSentence(id, view))
      .filter(Boolean)
      .join('\n');
  }
  for (const sentence of rules.unavailableNotes?.(view) ?? unavailableNotes(view)) lines.push(sentence);
  const recalled = memoryNote(view);
  if (recalled) lines.push(recalled);
  return lines.join('\n') || 'Done.';
}

/** One step of the reference agent. `rules` lets a baseline switch one behaviour off. */
export function referenceStep(
  call: Pick<LanguageModelV4CallOptions, 'prompt' | 'tools'>,
  rules: ReferenceRules = {},
): StepAnswer {
  const view = readPrompt(call);
  // After tool results: either answer a retry, or report.
  if (view.calls.length > 0) return view.guidance ? answerRetry(view, rules) : reportResults(view, rules);
  return planFor(view, rules, {});
}

function unavailableNotes(view: PromptView): string[] {
  const notes: string[] = [];
  for (const intent of intentsOf(view.current, view)) {
    if (view.tools.has(intent.name)) continue;
    const sentence = unavailableSentence(intent.name, view);
    if (sentence) notes.push(sentence);
  }
  return notes;
}

/** The tools the message asks for; a follow-up ("do it now", an answer) continues the previous request. */
function requestOf(view: PromptView) {
  const text = view.current;
  let intents = intentsOf(text, view);
  let source = text;
  const answersQuestion = /need a bit more information|need to know/i.test(view.previousReply);
  const refersBack = /\b(it|that|now|again)\b/i.test(text);
  if (view.previousUser && (answersQuestion || refersBack)) {
    const earlier = intentsOf(view.previousUser, view);
    if (answersQuestion && earlier.length) intents = earlier;
    else if (intents.length === 0) intents = earlier;
    source = `${view.previousUser}\n${text}`;
  }
  return { intents, source };
}

/** With no tool to call: what the agent says about the connectors the message names, or that it cannot help. */
function answerWithoutTools(view: PromptView, rules: ReferenceRules, noIntent: boolean): StepAnswer {
  const text = view.current;
  const named = (id: string) =>
    words(text).includes(id) || words(text).includes(nameOf(view, id).toLowerCase());
  // A named server that cannot be reached (its tools are not offered, so no intent matched): say so.
  const unreachable = Object.keys(view.status).filter(
    (id) => view.status[id]!.status === 'unavailable' && named(id),
  );
  if (unreachable.length && noIntent)
    return unreachable.map((id) => unavailableSentence(`${id}_use`, view)).join('\n');
  const mentioned = Object.keys(view.status).filter(named);
  if (mentioned.length && /connected|working|set up|status/i.test(text)) {
    return mentioned.map((id) => statusSentence(id, view)).join('\n');
  }
  if (rules.onNoIntent) return rules.onNoIntent(view);
  return "I can't do that with the services connected here. I can help with tasks in your connected tools, for example issues, tickets and messages.";
}

function planFor(
  view: PromptView,
  rules: ReferenceRules,
  { afterRefresh = false }: { afterRefresh?: boolean },
): StepAnswer {
  const text = view.current;
  if (!afterRefresh && checkConnection.test(text) && view.tools.has('refresh_connector_status')) {
    return { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] };
  }
  if (capabilityQuestion.test(text)) return rules.capabilities?.(view) ?? capabilityReply(view);
  const { intents, source } = requestOf(view);
  const toolCalls: ScriptedToolCall[] = [];
  const notes: string[] = [];
  for (const intent of intents) {
    const tool = view.tools.get(intent.name);
    if (tool || rules.callUnexposed) {
      const schemaTool = tool ?? { inputSchema: rules.schemaOf?.(intent.name) ?? {} };
      toolCalls.push({ toolName: intent.name, input: extractArguments(schemaTool, source) });
      continue;
    }
    const sentence = unavailableSentence(intent.name, view);
    notes.push(sentence ?? "I can't help with that here.");
  }
  if (toolCalls.length) return { toolCalls };
  const recalled = memoryNote(view);
  if (notes.length) return [...notes, ...(recalled ? [recalled] : [])].join('\n');
  if (recalled) return recalled;
  if (!afterRefresh && view.status.memory?.status === 'connected' && statementAboutUser.test(text.trim()))
    return "Noted. I'll remember that.";
  if (!afterRefresh) return answerWithoutTools(view, rules, intents.length === 0);
  return {};
}

/** Creates the offline reference agent (a stand-in LanguageModelV4, not a real model). */
export function createReferenceAgent(): LanguageModelV4 {
  return createScriptedModel((call) => referenceStep(call), {
    provider: 'patchbay.reference-agent',
    modelId: 'reference-agent (offline stand-in)',
  });
}
