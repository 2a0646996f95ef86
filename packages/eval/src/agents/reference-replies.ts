// What the reference agent says: why a tool cannot be used now, what it can do, a tool's result, and
// what memory holds about a recall question.
import { nameOf } from './reference-intents.js';
import { type PromptView, type ResultEnvelope, words } from './reference-prompt.js';

/** What the sentences about connectors read: the catalog and the latest status. */
type ReplyView = Pick<PromptView, 'catalog' | 'status'>;

/** Why a tool is not callable, from the status block; undefined for a connector the block leaves out. */
export function unavailableSentence(toolName: string, view: ReplyView): string | undefined {
  const [connectorId = ''] = toolName.split('_');
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
    return `${name} is connected with read-only access (scopes: ${entry.scopes!.join(', ') || 'none'}), so I can't ${action}. Reconnect ${name} with write permission to allow it.`;
  }
  return undefined;
}

/** The capability presentation: ready now vs available after setup; absent connectors never named. */
export function capabilityReply(view: Pick<PromptView, 'catalog' | 'status'>): string {
  const ready: string[] = [];
  const later: string[] = [];
  for (const [id, entry] of Object.entries(view.status)) {
    const name = nameOf(view, id);
    if (entry.status === 'connected')
      ready.push(`- ${name}: ${view.catalog[id]?.can ?? entry.tools!.join(', ')}`);
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

export function statusSentence(id: string, view: ReplyView): string | undefined {
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
function retryNote(envelope: ResultEnvelope, view: Pick<PromptView, 'currentTime'>): string {
  if (envelope.error_type !== 'rate_limited' || envelope.retry_after_s === undefined) return '';
  const start = Date.parse(view.currentTime ?? '');
  if (Number.isNaN(start)) return ` Please try again in ${envelope.retry_after_s} seconds.`;
  const at = new Date(start + envelope.retry_after_s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return ` Please try again after ${at} (in ${envelope.retry_after_s} seconds).`;
}

export function summarize(
  toolName: string,
  envelope: ResultEnvelope,
  view: ReplyView & Pick<PromptView, 'currentTime'>,
): string {
  const [connectorId = ''] = toolName.split('_');
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
export const statementAboutUser =
  /^(my\s+[\w\s]+\s(is|are|was)\s|i\s+(moved|live|work|prefer|like|love|am)\b)/i;
const recallStopWords = new Set(
  'what which where when does remember tell about again also please like know with from that this have'.split(
    ' ',
  ),
);

/** What memory says to a recall question: from the `<memory>` block, or that memory is unavailable. */
export function memoryNote(view: Pick<PromptView, 'current' | 'status' | 'memory'>): string | undefined {
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
