// How the reference agent reads a request: which tool a clause asks for, scored from the words of
// the tool's name (connector, verb, object), and the tool's arguments from what the user wrote.
import { type OfferedTool, type PromptView, words } from './reference-prompt.js';

/** A tool a clause of the message asks for, and how well. */
export interface Intent {
  name: string;
  score: number;
  clause: string;
}

/** Words that say what a tool does, keyed by the verb in its name. */
const verbWords: Record<string, string[]> = {
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
const objectWords: Record<string, string[]> = {
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

export const nameOf = (view: Pick<PromptView, 'catalog'>, id: string) =>
  view.catalog[id]?.name ?? id.charAt(0).toUpperCase() + id.slice(1);

/** Scores how well a clause asks for a tool, from the tool's name parts. */
export function scoreTool(toolName: string, clause: string, view: Pick<PromptView, 'catalog'>): number {
  const [connectorId = '', verb = '', ...rest] = toolName.split('_');
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

function allToolNames(view: Pick<PromptView, 'catalog' | 'tools'>): string[] {
  const names = new Set(view.tools.keys());
  for (const entry of Object.values(view.catalog)) for (const name of entry.tools) names.add(name);
  names.delete('refresh_connector_status');
  return [...names];
}

/** The tools a message asks for: the best tool per clause, above a threshold. */
export function intentsOf(
  text: string,
  view: Pick<PromptView, 'catalog' | 'tools'>,
  threshold = 4,
): Intent[] {
  const clauses = text.split(
    /\band then\b|\bthen\b|\band also\b|;|\.\s|\band\b(?= (?:list|post|create|send|tell|share|file|read|resolve|get|show|open|make))/i,
  );
  const found: Intent[] = [];
  for (const clause of clauses) {
    let best: Intent | undefined;
    for (const name of allToolNames(view)) {
      const score = scoreTool(name, clause, view);
      if (score >= threshold && (!best || score > best.score)) best = { name, score, clause };
    }
    const chosen = best;
    if (chosen && !found.some((item) => item.name === chosen.name)) found.push(chosen);
  }
  if (found.length === 0 && clauses.length > 1) {
    // The request may be spread over several sentences: score the whole message once.
    let best: Intent | undefined;
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

export function quoted(text: string): string[] {
  return [...text.matchAll(quotePattern)].map((match) => match[1]!);
}

export function quotedAfter(text: string, keywords: string): string | undefined {
  const pattern = new RegExp(
    `(?:${keywords})\\s*:?\\s*(?<![A-Za-z])['"“‘]([^'"”’]{1,200}?)['"”’](?![A-Za-z])`,
    'i',
  );
  return pattern.exec(text)?.[1];
}

/** What every field's extractor may read of the user's text. */
interface ExtractionContext {
  /** The tool's input properties. */
  properties: Record<string, unknown>;
  /** The quoted strings of the text, in order. */
  strings: string[];
  /** `owner/name` in the text (URLs left out). */
  ownerAndName: RegExpExecArray | null;
}

type Extractor = (text: string, context: ExtractionContext) => unknown;

const numberIn = (found: RegExpExecArray | null, ...groups: number[]) => {
  if (!found) return undefined;
  const group = groups.map((index) => found[index]).find((value) => value !== undefined);
  return Number(group);
};

/** Fields recognised by name, whatever their type. */
const fieldsByName = new Map<string, Extractor>([
  [
    'channel',
    (text) =>
      // A channel ID (C0123ABCD) when the schema wants one, else a #name.
      /\b([CGD](?=[A-Z0-9]*\d)[A-Z0-9]{8,11})\b/.exec(text)?.[1] ??
      /(#[a-z][\w-]*)/i.exec(text)?.[1] ??
      /\b(?:the|in|to) ([a-z][\w-]*) channel\b/i.exec(text)?.[1],
  ],
  ['issue_key', (text) => /\b([A-Z][A-Z0-9]+-\d+)\b/.exec(text)?.[1]], // PROJ-7, ENG-123
  ['issue_id', (text) => /\b([A-Z][A-Z0-9]+-\d+)\b/.exec(text)?.[1]],
  ['page_id', (text) => /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/.exec(text)?.[1]],
  ['id', (text) => /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/.exec(text)?.[1]],
  ['channel_id', (text) => /\b(\d{17,20})\b/.exec(text)?.[1]], // a Discord snowflake
  ['sid', (text) => /\b((?:SM|MM)[0-9a-f]{32})\b/.exec(text)?.[1]],
  ['owner', (_text, { ownerAndName }) => ownerAndName?.[1]],
  // With a separate `owner` field, `repo` is the name alone.
  [
    'repo',
    (_text, { properties, ownerAndName }) => (properties.owner ? ownerAndName?.[2] : ownerAndName?.[0]),
  ],
  ['ts', (text) => /\b(\d{6,}\.\d+)\b/.exec(text)?.[1]],
  [
    'user',
    (text) =>
      /\b(?:[Tt]o|message|buzz|dm|ping|tell)\s+(?:my (?:friend|colleague|cousin|advisor|partner),?\s+)?([A-Z][a-z]+)/.exec(
        text,
      )?.[1] ?? /\b(?:friend|colleague|cousin|advisor|partner)(?:'s name)? is ([A-Z][a-z]+)/.exec(text)?.[1],
  ],
  ['team', (text) => /\b([A-Z]{2,})\b/.exec(text)?.[1]],
  ['priority', (text) => numberIn(/(?:priority|level)\D{0,12}(\d)/i.exec(text), 1)],
]);

/**
 * A number field not recognised by name: up to 9 digits (a longer number is an id, a Discord
 * snowflake, not a count or a number).
 */
const numberField: Extractor = (text) =>
  numberIn(/#\s*(\d+)|\b(?:number|no\.?|id)\s*(?:is\s*)?#?\s*(\d{1,9})\b|\b(\d{2,9})\b/i.exec(text), 1, 2, 3);

/** Text fields, read from quotes after their keywords. */
const textFields = new Map<string, Extractor>([
  ['title', (text, { strings }) => quotedAfter(text, 'titled|title is|title|called|named') ?? strings[0]],
  [
    'text',
    (text, { strings }) =>
      quotedAfter(text, 'saying|say|says|message is|message|text|that') ?? strings.at(-1),
  ],
  ['description', (text) => quotedAfter(text, 'description')],
  ['resolution', (text) => quotedAfter(text, 'resolution|resolution as')],
  ['query', (text, { strings }) => strings[0] ?? /\b(?:for|about)\s+([\w\s]+?)(?:[.?!]|$)/i.exec(text)?.[1]],
]);

/** The extractor of one field: by name, else by number type, else a text field's. */
function extractorOf(field: string, schema: unknown): Extractor | undefined {
  const type = (schema as { type?: unknown } | null)?.type;
  return (
    fieldsByName.get(field) ?? (type === 'integer' || type === 'number' ? numberField : textFields.get(field))
  );
}

/** Fills a tool's arguments from what the user wrote; fields it cannot find stay absent. */
export function extractArguments(
  tool: Pick<OfferedTool, 'inputSchema'>,
  text: string,
): Record<string, unknown> {
  const properties = tool.inputSchema?.properties ?? {};
  const args: Record<string, unknown> = {};
  const context: ExtractionContext = {
    properties,
    strings: quoted(text),
    ownerAndName: /\b([\w.-]+)\/([\w.-]+)\b/.exec(text.replace(/https?:\/\/\S+/g, '')),
  };
  for (const [field, schema] of Object.entries(properties)) {
    const value = extractorOf(field, schema)?.(text, context);
    if (value !== undefined && value !== '') args[field] = value;
  }
  return args;
}
