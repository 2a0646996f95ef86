// The offline reference agent: a STAND-IN for a real model, used when PATCHBAY_EVAL_MODEL is unset.
// It is a rule-based LanguageModelV4 (built on createScriptedModel) that reads only what a real model
// would get: the system prompt (with its connector catalog), the <connector_status> block, the
// tools it is offered, the conversation and the tool results. It follows the Patchbay protocol by
// rules, so the suite can run without network or keys. It proves the harness and the protocol, not
// the quality of any model. The naive baselines in ./baselines.mjs reuse its parts with one rule broken.
import { createScriptedModel } from '@patchbay/turn/testing';

/** Words that say what a tool does, keyed by the verb in its name. */
const verbWords = {
  list: ['list', 'show', 'open', 'what', 'which', 'any'],
  read: ['read', 'summarize', 'summarise', 'latest', 'catch', 'recap', 'messages'],
  create: ['create', 'file', 'make', 'new', 'draft', 'raise', 'log', 'add', 'report'],
  post: ['post', 'tell', 'announce', 'say', 'send', 'share'],
  send: ['send', 'dispatch', 'buzz', 'message', 'dm', 'ping', 'tell', 'write'],
  delete: ['delete', 'remove'],
  get: ['get', 'details', 'retrieve', 'show', 'fetch'],
  resolve: ['resolve', 'resolved', 'close', 'closed', 'done', 'fixed'],
  search: ['search', 'find', 'look'],
  share: ['share'],
};
/** Words for the objects tools act on. */
const objectWords = {
  issue: ['issue', 'issues', 'bug', 'bugs'],
  issues: ['issue', 'issues', 'bug', 'bugs'],
  ticket: ['ticket', 'tickets', 'ticketing'],
  channel: ['channel', 'channels'],
  message: ['message', 'messages', 'note'],
  direct: ['direct', 'dm', 'privately'],
  pull: ['pull', 'pr'],
  request: ['request', 'pr'],
  pages: ['page', 'pages', 'notes', 'docs', 'notion'],
  github: ['github', 'repo', 'repository'],
};

/** Parts of tool names that join words (`comment_on_issue`) and say nothing about the request. */
const linkingWords = new Set(['on', 'by', 'for', 'to', 'in', 'of', 'with']);

const capabilityQuestion =
  /\b(what can you do|what are you able|what else can you|capabilit|which (services|tools|integrations|connectors)|what do you (support|connect))/i;
const checkConnection =
  /\b(just (connected|set up|fixed|reconnected)|check (if|whether|my|the) .*connect|is (\w+ )?(still )?connected|verify .*connection)/i;

function words(text) {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

function textOfUser(message) {
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .filter((text) => !/^\[\d{4}-\d{2}-\d{2}T[\d:]+Z\]$/.test(text) && !text.startsWith('<current_time>'))
    .join('\n');
}

/**
 * A tool result's value: JSON as sent, or text that holds JSON (frameworks that pass tool output as
 * a string, as the Agents SDK does), parsed.
 */
function resultValue(output) {
  if (output?.type !== 'text' || typeof output.value !== 'string') return output?.value;
  try {
    return JSON.parse(output.value);
  } catch {
    return output.value;
  }
}

/** Reads what the prompt says: catalog, latest status, conversation, this turn's calls and results. */
export function readPrompt(call) {
  const system = call.prompt.find((message) => message.role === 'system')?.content ?? '';
  const catalog = {};
  for (const match of system.matchAll(/^- ([a-z0-9]+) \(([^)]+)\): (.*?) Can: (.*?)\. Tools: (.*?)\.$/gm)) {
    catalog[match[1]] = { name: match[2], can: match[4], tools: match[5].split(', ') };
  }
  let status = {};
  // A framework that puts the per-turn context in its instructions (an Agents SDK agent): read it
  // there; a block in a user message, later in the prompt, is newer.
  for (const found of system.matchAll(
    /<connector_status captured_at="[^"]*">([\s\S]*?)<\/connector_status>/g,
  )) {
    // The protocol blocks describe the tag in prose too: only a block that holds JSON is status.
    try {
      status = JSON.parse(found[1]);
    } catch {}
  }
  let lastUserIndex = -1;
  call.prompt.forEach((message, index) => {
    if (message.role !== 'user') return;
    // The product's block comes first in a message (the per-turn context); a block the user typed
    // in their own words later in the message is not status.
    for (const part of message.content) {
      const found =
        part.type === 'text' && /<connector_status[^>]*>([\s\S]*?)<\/connector_status>/.exec(part.text);
      if (found) {
        status = JSON.parse(found[1]);
        break;
      }
    }
    if (!message.content.some((part) => part.type === 'text' && part.text.startsWith('<retry_guidance'))) {
      lastUserIndex = index;
    }
  });
  const userTexts = call.prompt
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message.role === 'user')
    .filter(
      ({ message }) =>
        !message.content.some((part) => part.type === 'text' && part.text.startsWith('<retry_guidance')),
    )
    .map(({ message, index }) => ({ index, text: textOfUser(message) }));
  const current = userTexts.at(-1)?.text ?? '';
  const after = call.prompt.slice(lastUserIndex + 1);
  const calls = [];
  const results = new Map();
  let guidance;
  for (const message of after) {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') calls.push(part);
    } else if (message.role === 'tool') {
      for (const part of message.content) results.set(part.toolCallId, resultValue(part.output));
    } else if (message.role === 'user') {
      guidance = textOfUser(message);
    } else {
      guidance = undefined;
    }
  }
  // Guidance matters only while it is the latest word: after the retried calls it is history.
  if (after.at(-1)?.role !== 'user') guidance = undefined;
  // A loop Patchbay does not own (a framework's) cannot add a message between steps: the guidance
  // then rides on the latest tool results (`retry_guidance`), and is as much the latest word.
  if (guidance === undefined && after.at(-1)?.role === 'tool') {
    for (const part of after.at(-1).content) {
      const value = results.get(part.toolCallId);
      if (typeof value?.retry_guidance === 'string') guidance = value.retry_guidance;
    }
  }
  // The previous assistant reply, to continue a question it asked.
  const before = call.prompt.slice(0, lastUserIndex);
  const previousAssistant = [...before].reverse().find((message) => message.role === 'assistant');
  const previousReply = previousAssistant
    ? previousAssistant.content
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n')
    : '';
  const previousUser = userTexts.at(-2)?.text ?? '';
  const tools = new Map((call.tools ?? []).map((tool) => [tool.name, tool]));
  // Long-term memory: the <memory> block of this turn's context, if the turn has one.
  let memory;
  const currentUser = call.prompt[lastUserIndex];
  for (const part of currentUser?.content ?? []) {
    const found =
      part.type === 'text' && /<memory source="previous_sessions">([\s\S]*?)<\/memory>/.exec(part.text);
    if (found) memory = found[1];
  }
  let currentTime;
  for (const message of call.prompt) {
    if (message.role !== 'user') continue;
    for (const part of message.content) {
      const found = part.type === 'text' && /<current_time>([^<]+)<\/current_time>/.exec(part.text);
      if (found) currentTime = found[1];
    }
  }
  return {
    system,
    catalog,
    status,
    current,
    currentTime,
    previousReply,
    previousUser,
    calls,
    results,
    guidance,
    tools,
    memory,
  };
}

const nameOf = (view, id) => view.catalog[id]?.name ?? id.charAt(0).toUpperCase() + id.slice(1);

/** Scores how well a clause asks for a tool, from the tool's name parts. */
export function scoreTool(toolName, clause, view) {
  const [connectorId, verb, ...rest] = toolName.split('_');
  const said = new Set(words(clause));
  let score = 0;
  const connectorName = nameOf(view, connectorId).toLowerCase();
  if (said.has(connectorId) || said.has(connectorName)) score += 3;
  if ((verbWords[verb] ?? [verb]).some((word) => said.has(word))) score += 2;
  for (const part of rest) {
    if (linkingWords.has(part)) continue;
    if ((objectWords[part] ?? [part]).some((word) => said.has(word))) score += 2;
  }
  if (connectorId === 'slack' && /#[a-z]/i.test(clause)) score += toolName.includes('channel') ? 3 : 2;
  return score;
}

function allToolNames(view) {
  const names = new Set(view.tools.keys());
  for (const entry of Object.values(view.catalog)) for (const name of entry.tools) names.add(name);
  names.delete('refresh_connector_status');
  return [...names];
}

/** The tools a message asks for: the best tool per clause, above a threshold. */
export function intentsOf(text, view, threshold = 4) {
  const clauses = text.split(
    /\band then\b|\bthen\b|\band also\b|;|\.\s|\band\b(?= (?:list|post|create|send|tell|share|file|read|resolve|get|show|open|make))/i,
  );
  const found = [];
  for (const clause of clauses) {
    let best;
    for (const name of allToolNames(view)) {
      const score = scoreTool(name, clause, view);
      if (score >= threshold && (!best || score > best.score)) best = { name, score, clause };
    }
    if (best && !found.some((item) => item.name === best.name)) found.push(best);
  }
  if (found.length === 0 && clauses.length > 1) {
    // The request may be spread over several sentences: score the whole message once.
    let best;
    for (const name of allToolNames(view)) {
      const score = scoreTool(name, text, view);
      if (score >= threshold && (!best || score > best.score)) best = { name, score, clause: text };
    }
    if (best) found.push(best);
  }
  return found;
}

// A quote that is not an apostrophe inside a word ("today's" is not a quote).
const quotePattern = /(?<![A-Za-z])['"“‘]([^'"”’]{1,200}?)['"”’](?![A-Za-z])/g;

function quoted(text) {
  return [...text.matchAll(quotePattern)].map((match) => match[1]);
}

function quotedAfter(text, keywords) {
  const pattern = new RegExp(
    `(?:${keywords})\\s*:?\\s*(?<![A-Za-z])['"“‘]([^'"”’]{1,200}?)['"”’](?![A-Za-z])`,
    'i',
  );
  return pattern.exec(text)?.[1];
}

/** Fills a tool's arguments from what the user wrote; fields it cannot find stay absent. */
export function extractArguments(tool, text) {
  const properties = tool.inputSchema?.properties ?? {};
  const args = {};
  const strings = quoted(text);
  for (const [field, schema] of Object.entries(properties)) {
    let value;
    const ownerAndName = /\b([\w.-]+)\/([\w.-]+)\b/.exec(text.replace(/https?:\/\/\S+/g, ''));
    if (field === 'channel')
      value =
        // A channel ID (C0123ABCD) when the schema wants one, else a #name.
        /\b([CGD](?=[A-Z0-9]*\d)[A-Z0-9]{8,11})\b/.exec(text)?.[1] ??
        /(#[a-z][\w-]*)/i.exec(text)?.[1] ??
        /\b(?:the|in|to) ([a-z][\w-]*) channel\b/i.exec(text)?.[1];
    else if (field === 'issue_key' || field === 'issue_id')
      value = /\b([A-Z][A-Z0-9]+-\d+)\b/.exec(text)?.[1]; // PROJ-7, ENG-123
    else if (field === 'page_id' || field === 'id')
      value = /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/.exec(text)?.[1];
    else if (field === 'channel_id')
      value = /\b(\d{17,20})\b/.exec(text)?.[1]; // a Discord snowflake
    else if (field === 'sid') value = /\b((?:SM|MM)[0-9a-f]{32})\b/.exec(text)?.[1];
    else if (field === 'owner') value = ownerAndName?.[1];
    else if (field === 'repo')
      // With a separate `owner` field, `repo` is the name alone.
      value = properties.owner ? ownerAndName?.[2] : ownerAndName?.[0];
    else if (field === 'ts') value = /\b(\d{6,}\.\d+)\b/.exec(text)?.[1];
    else if (field === 'user') {
      value =
        /\b(?:[Tt]o|message|buzz|dm|ping|tell)\s+(?:my (?:friend|colleague|cousin|advisor|partner),?\s+)?([A-Z][a-z]+)/.exec(
          text,
        )?.[1] ??
        /\b(?:friend|colleague|cousin|advisor|partner)(?:'s name)? is ([A-Z][a-z]+)/.exec(text)?.[1];
    } else if (field === 'team') value = /\b([A-Z]{2,})\b/.exec(text)?.[1];
    else if (field === 'priority') {
      const found = /(?:priority|level)\D{0,12}(\d)/i.exec(text);
      value = found ? Number(found[1]) : undefined;
    } else if (schema.type === 'integer' || schema.type === 'number') {
      // Up to 9 digits: a longer number is an id (a Discord snowflake), not a count or a number.
      const found = /#\s*(\d+)|\b(?:number|no\.?|id)\s*(?:is\s*)?#?\s*(\d{1,9})\b|\b(\d{2,9})\b/i.exec(text);
      value = found ? Number(found[1] ?? found[2] ?? found[3]) : undefined;
    } else if (field === 'title') {
      value = quotedAfter(text, 'titled|title is|title|called|named') ?? strings[0];
    } else if (field === 'text') {
      value = quotedAfter(text, 'saying|say|says|message is|message|text|that') ?? strings.at(-1);
    } else if (field === 'description') {
      value = quotedAfter(text, 'description');
    } else if (field === 'resolution') {
      value = quotedAfter(text, 'resolution|resolution as');
    } else if (field === 'query') {
      value = strings[0] ?? /\b(?:for|about)\s+([\w\s]+?)(?:[.?!]|$)/i.exec(text)?.[1];
    }
    if (value !== undefined && value !== '') args[field] = value;
  }
  return args;
}

/** Why a tool is not callable, from the status block; undefined for a connector the block leaves out. */
function unavailableSentence(toolName, view) {
  const [connectorId] = toolName.split('_');
  const entry = view.status[connectorId];
  if (!entry) return undefined;
  const name = nameOf(view, connectorId);
  const action = toolName.split('_').slice(1).join(' ');
  if (entry.status === 'not_configured') {
    return `${name} is not connected yet, so I can't ${action} there. You can connect it at ${entry.setup_url}.`;
  }
  if (entry.status === 'invalid_credentials') {
    return `${name}'s connection has expired or was revoked${entry.error ? ` (${entry.error})` : ''}. Please reconnect it at ${entry.setup_url} and I can ${action}.`;
  }
  if (entry.status === 'unavailable') {
    return `${name} is unavailable right now (its server cannot be reached), so I can't ${action}${entry.retry_after ? `; it may be back after ${entry.retry_after}` : ''}.`;
  }
  if (entry.status === 'rate_limited') {
    return `${name} is rate limiting requests right now, so I can't ${action} until ${entry.retry_after ?? 'the limit lifts'}. Please try again after that.`;
  }
  if (entry.status === 'connected') {
    // Connected but the tool is not offered: a missing scope, or another connector it needs.
    const other = toolName
      .split('_')
      .slice(1)
      .find((part) => view.status[part] !== undefined || view.catalog[part] !== undefined);
    if (other && view.status[other]?.status !== 'connected') {
      const otherEntry = view.status[other];
      if (!otherEntry) return `I can't ${action} here.`;
      return `To ${action} I also need ${nameOf(view, other)}, which is ${otherEntry.status.replaceAll('_', ' ')}. You can connect it at ${otherEntry.setup_url}.`;
    }
    return `${name} is connected with read-only access (scopes: ${entry.scopes.join(', ') || 'none'}), so I can't ${action}. Reconnect ${name} with write permission to allow it.`;
  }
  return undefined;
}

/** The capability presentation: ready now vs available after setup; absent connectors never named. */
export function capabilityReply(view) {
  const ready = [];
  const later = [];
  for (const [id, entry] of Object.entries(view.status)) {
    const name = nameOf(view, id);
    if (entry.status === 'connected')
      ready.push(`- ${name}: ${view.catalog[id]?.can ?? entry.tools.join(', ')}`);
    else if (entry.status === 'not_configured')
      later.push(`- ${name}: ${(entry.would_enable ?? []).join('; ')} → connect at ${entry.setup_url}`);
    else if (entry.status === 'invalid_credentials')
      later.push(
        `- ${name}: ${(entry.would_enable ?? []).join('; ')} → reconnect at ${entry.setup_url} (credentials no longer valid)`,
      );
    else if (entry.status === 'rate_limited')
      later.push(`- ${name}: rate limited until ${entry.retry_after}; usable again after that`);
  }
  const lines = ['I can help you with:'];
  lines.push('', '**Ready now:**', ...(ready.length ? ready : ['- Nothing yet: no service is connected.']));
  if (later.length) lines.push('', '**Available after setup:**', ...later);
  return lines.join('\n');
}

function statusSentence(id, view) {
  const entry = view.status[id];
  const name = nameOf(view, id);
  if (!entry) return undefined;
  if (entry.status === 'connected') return `${name} is connected.`;
  return (
    unavailableSentence(`${id}_use`, view)?.replace(" so I can't use there.", '') ??
    `${name} is ${entry.status}.`
  );
}

/** When a rate-limited call may be tried again, from the envelope's `retry_after_s` and `<current_time>`. */
function retryNote(envelope, view) {
  if (envelope.error_type !== 'rate_limited' || envelope.retry_after_s === undefined) return '';
  const start = Date.parse(view.currentTime ?? '');
  if (Number.isNaN(start)) return ` Please try again in ${envelope.retry_after_s} seconds.`;
  const at = new Date(start + envelope.retry_after_s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return ` Please try again after ${at} (in ${envelope.retry_after_s} seconds).`;
}

function summarize(toolName, envelope, view) {
  const [connectorId] = toolName.split('_');
  const name = nameOf(view, connectorId);
  if (envelope.ok) {
    const data = JSON.stringify(envelope.data);
    return `${toolName.replace(`${connectorId}_`, '').replaceAll('_', ' ')} on ${name}: done. Result: ${data.length > 300 ? `${data.slice(0, 300)}…` : data}`;
  }
  const where = envelope.setup_url ? ` (${envelope.setup_url})` : '';
  return `${envelope.user_message}${where}${retryNote(envelope, view)}`;
}

/** A question about what the user said before ("which colour do I like?", "do you remember…"). */
const recallQuestion =
  /\b(do you remember|remind me|what did i|(what|which|where|who|when)\b[^?]*\b(my|i|me)\b[^?]*\?)/i;
/** A statement about the user ("My favourite colour is teal", "I moved to Lyon"). */
const statementAboutUser = /^(my\s+[\w\s]+\s(is|are|was)\s|i\s+(moved|live|work|prefer|like|love|am)\b)/i;
const recallStopWords = new Set(
  'what which where when does remember tell about again also please like know with from that this have'.split(
    ' ',
  ),
);

/** What memory says to a recall question: from the `<memory>` block, or that memory is unavailable. */
export function memoryNote(view) {
  if (!recallQuestion.test(view.current)) return undefined;
  const entry = view.status.memory;
  if (entry && entry.status !== 'connected')
    return "My memory of earlier conversations is unavailable right now, so I can't look up what you told me before.";
  if (!entry) return undefined;
  const wanted = words(view.current).filter((word) => word.length >= 4 && !recallStopWords.has(word));
  const known = (view.memory ?? '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .split(/\n|(?<=\.)\s/)
    .map((line) => line.replace(/^[-*]\s*/, '').trim())
    .filter((line) => line && wanted.some((word) => words(line).includes(word)));
  if (known.length) return `From our earlier conversations: ${known.join(' ')}`;
  return "I don't have anything about that from our earlier conversations.";
}

/** One step of the reference agent. `rules` lets a baseline switch one behaviour off. */
export function referenceStep(call, rules = {}) {
  const view = readPrompt(call);
  // After tool results: either answer a retry, or report.
  if (view.calls.length > 0) {
    if (view.guidance) {
      const reply = rules.onRetry?.(view);
      if (reply) return reply;
      const fixed = [];
      const questions = [];
      for (const toolCall of view.calls) {
        const envelope = view.results.get(toolCall.toolCallId);
        if (!envelope || envelope.ok) continue;
        if (envelope.error_type === 'invalid_arguments') {
          const args = { ...toolCall.input };
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
      // Never invents a value: needs_input goes back to the user as questions.
      if (fixed.length && questions.length === 0) return { toolCalls: fixed };
      if (questions.length)
        return `Before I can do that I need a bit more information:\n${questions.map((q) => `- ${q}`).join('\n')}`;
      return 'I could not complete that request with the details given. Could you tell me exactly what you want?';
    }
    const lines = [];
    for (const toolCall of view.calls) {
      if (toolCall.toolName === 'refresh_connector_status') continue;
      const envelope = view.results.get(toolCall.toolCallId);
      if (envelope) lines.push(summarize(toolCall.toolName, envelope, view));
    }
    const refreshed = view.calls.find((toolCall) => toolCall.toolName === 'refresh_connector_status');
    if (refreshed) {
      const fresh = view.results.get(refreshed.toolCallId)?.data?.connector_status;
      if (fresh) view.status = fresh;
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
  return planFor(view, rules, {});
}

function unavailableNotes(view) {
  const notes = [];
  for (const intent of intentsOf(view.current, view)) {
    if (view.tools.has(intent.name)) continue;
    const sentence = unavailableSentence(intent.name, view);
    if (sentence) notes.push(sentence);
  }
  return notes;
}

function planFor(view, rules, { afterRefresh }) {
  const text = view.current;
  if (!afterRefresh && checkConnection.test(text) && view.tools.has('refresh_connector_status')) {
    return { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] };
  }
  if (capabilityQuestion.test(text)) return rules.capabilities?.(view) ?? capabilityReply(view);
  let intents = intentsOf(text, view);
  let source = text;
  const answersQuestion = /need a bit more information|need to know/i.test(view.previousReply);
  const refersBack = /\b(it|that|now|again)\b/i.test(text);
  // A follow-up ("do it now", or the answer to the previous turn's question) continues that request.
  if (view.previousUser && (answersQuestion || refersBack)) {
    const earlier = intentsOf(view.previousUser, view);
    if (answersQuestion && earlier.length) intents = earlier;
    else if (intents.length === 0) intents = earlier;
    source = `${view.previousUser}\n${text}`;
  }
  const toolCalls = [];
  const notes = [];
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
  if (!afterRefresh) {
    // A named server that cannot be reached (its tools are not offered, so no intent matched): say so.
    const named = Object.keys(view.status).filter(
      (id) =>
        view.status[id].status === 'unavailable' &&
        (words(text).includes(id) || words(text).includes(nameOf(view, id).toLowerCase())),
    );
    if (named.length && intents.length === 0)
      return named.map((id) => unavailableSentence(`${id}_use`, view)).join('\n');
    const mentioned = Object.keys(view.status).filter(
      (id) => words(text).includes(id) || words(text).includes(nameOf(view, id).toLowerCase()),
    );
    if (mentioned.length && /connected|working|set up|status/i.test(text)) {
      return mentioned.map((id) => statusSentence(id, view)).join('\n');
    }
    if (rules.onNoIntent) return rules.onNoIntent(view);
    return "I can't do that with the services connected here. I can help with tasks in your connected tools, for example issues, tickets and messages.";
  }
  return {};
}

/** Creates the offline reference agent (a stand-in LanguageModelV4, not a real model). */
export function createReferenceAgent() {
  return createScriptedModel((call) => referenceStep(call), {
    provider: 'patchbay.reference-agent',
    modelId: 'reference-agent (offline stand-in)',
  });
}
