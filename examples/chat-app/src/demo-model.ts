import { createScriptedModel, type ScriptedModel, type ScriptedReply } from '@patchbay/turn/testing';

/** The prompt of one model call (AI SDK `LanguageModelV4Prompt`). */
type Prompt = ScriptedModel['prompts'][number];

/**
 * What the person wrote last, without the blocks the turn attaches to their message (the time stamp,
 * `<current_time>`, `<connector_status>`): those name every tool, and a script reading them would
 * react to the status instead of the request.
 */
function requestText(prompt: Prompt): string {
  const message = prompt.findLast((entry) => entry.role === 'user');
  if (!message) return '';
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
    .replace(/<current_time>[\s\S]*?<\/current_time>/g, '')
    .replace(/<connector_status[\s\S]*?<\/connector_status>/g, '')
    .replace(/^\[[^\]]*\]/gm, '')
    .trim();
}

/** The envelope of the newest tool result, when the prompt ends with one. */
function lastToolEnvelope(prompt: Prompt): Record<string, unknown> | undefined {
  const message = prompt.at(-1);
  if (message?.role !== 'tool') return undefined;
  const result = message.content.findLast((part) => part.type === 'tool-result');
  if (!result) return undefined;
  const output = result.output;
  const value =
    output.type === 'json' || output.type === 'error-json'
      ? output.value
      : output.type === 'text' || output.type === 'error-text'
        ? safeParse(output.value)
        : undefined;
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : { value };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The reply after a tool result: what a person reads once the gate answered. */
function replyToResult(envelope: Record<string, unknown>): ScriptedReply {
  const data = (envelope.data ?? {}) as Record<string, unknown>;
  if (envelope.ok === true && typeof data.deleted === 'string')
    return { text: `Done: ${data.deleted} is deleted.` };
  if (envelope.ok === true && Array.isArray(data.issues)) {
    return {
      text: data.issues.length ? `Open issues: ${data.issues.join(', ')}.` : 'There are no open issues.',
    };
  }
  if (envelope.error_type === 'approval_required') return { text: 'That needs your approval first.' };
  const reason = typeof envelope.user_message === 'string' ? ` ${envelope.user_message}` : '';
  return { text: `Nothing was deleted.${reason}`.trim() };
}

/** The reply after the person approved or rejected held calls. */
function replyToDecisions(decisions: unknown): ScriptedReply {
  const [first] = Array.isArray(decisions) ? (decisions as { decision?: string; result?: unknown }[]) : [];
  if (first?.decision === 'approved' && first.result !== null && typeof first.result === 'object') {
    return replyToResult(first.result as Record<string, unknown>);
  }
  return { text: 'Understood: you rejected it, so nothing was deleted.' };
}

/**
 * A stand-in model for running the example offline and for its test: `delete issue WEB-1` calls
 * `tracker_delete_issue`, `list issues` calls `tracker_list_issues`, a tool result gets a one-line
 * reply, anything else a greeting. It streams (`doStream`) like a provider does. Replace it with any
 * AI SDK provider's model (see the README).
 */
export function createDemoModel(): ScriptedModel {
  return createScriptedModel((call) => {
    const envelope = lastToolEnvelope(call.prompt);
    if (envelope) return replyToResult(envelope);
    const text = requestText(call.prompt);
    // A resumed turn: the person's decisions, carried out by the gate, are this turn's user message.
    const decisions = /<approval_decisions>([\s\S]*?)<\/approval_decisions>/.exec(text);
    if (decisions) return replyToDecisions(safeParse(decisions[1]!));
    const deletion = /\bdelete\s+(?:issue\s+)?([A-Z]+-\d+)/i.exec(text);
    if (deletion) {
      return {
        text: `I will delete ${deletion[1]!.toUpperCase()}.`,
        toolCalls: [{ toolName: 'tracker_delete_issue', input: { key: deletion[1]!.toUpperCase() } }],
      };
    }
    if (/\blist\b|\bissues\b/i.test(text))
      return { toolCalls: [{ toolName: 'tracker_list_issues', input: {} }] };
    return {
      text: 'Hello! I can list the open issues in the tracker, or delete one (after you approve it).',
    };
  });
}
