import { refreshConnectorStatusToolName } from '@patchbay/protocol';
import type { Tool as McpTool } from '../sdk.js';

/**
 * Bounds on what an MCP server may say about its tools. Each is well above what an ordinary server
 * sends (a name of a few words, a description of a few paragraphs, a schema of a few kilobytes and a
 * handful of levels), so only a broken or hostile server reaches one. The name bound is the MCP
 * specification's own (1–128 characters).
 */
export const upstreamToolLimits = Object.freeze({
  /** Characters of a tool's own name (before any prefix). */
  maxNameLength: 128,
  /** Characters of a description or title, after control characters are stripped. */
  maxDescriptionLength: 16_384,
  /** Bytes of `inputSchema` (and of `outputSchema`) as JSON. */
  maxSchemaBytes: 262_144,
  /** Levels of JSON nesting in a schema: objects and arrays, the schema itself being level 1. */
  maxSchemaDepth: 64,
});

/** Why a tool of an MCP server was left out. */
export type DroppedToolReason =
  | 'name_too_long'
  | 'name_characters'
  | 'name_looks_like_a_path'
  | 'name_reserved'
  | 'name_declared_twice'
  | 'description_too_long'
  | 'schema_too_deep'
  | 'schema_too_large';

/** One tool a server listed that never reaches the registry, a turn or the gateway's `tools/list`. */
export interface DroppedTool {
  /** The name as the server sent it, made printable and cut to 80 characters. */
  name: string;
  reason: DroppedToolReason;
  /** A sentence for a person, naming the limit. */
  detail: string;
}

/** What {@link screenUpstreamTools} kept (cleaned) and what it left out. */
export interface ScreenedTools {
  tools: McpTool[];
  dropped: DroppedTool[];
}

// Names the gateway or a turn answers itself: a server tool of that name would be shadowed or
// would shadow ours, and the model could not tell which one it called.
const reservedNames: ReadonlySet<string> = new Set([refreshConnectorStatusToolName]);

// Control characters (C0 but tab and newline, DEL, C1), bidirectional overrides and isolates,
// zero-width characters and line/paragraph separators: they reorder or hide text in a terminal or a
// chat window, or are how a terminal escape sequence begins.
const unsafeCharacters =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;
// A whole terminal escape sequence (CSI `ESC [ … final`, OSC `ESC ] … BEL or ESC \`, or a two-byte
// escape), so that stripping the ESC does not leave `[2J` behind as text.
const escapeSequences =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u009b[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/gu;
// Characters a name may not hold: the unsafe ones above, any other whitespace than a plain space,
// and the characters that quote or mark up text where names are shown (`<>"'` and the backtick).
const forbiddenInName =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\t\n\r\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000<>"'`\\]/u;

/**
 * Text from a server made safe to show a model or a person: terminal escape sequences and control,
 * bidirectional and zero-width characters removed (tab and newline kept), and `<` / `>` written as
 * `&lt;` / `&gt;`. The escaping is why a fake `</connector_status>` in a description cannot close the
 * status block of a prompt (providers such as Anthropic render tool definitions into the prompt):
 * escaping keeps tools whose descriptions say `Array<string>` or `x > 0`, which dropping every
 * description with a `<` would lose, and a model reads `&lt;` as the character it stands for.
 */
export function cleanServerText(text: string): string {
  return text
    .replace(escapeSequences, '')
    .replace(unsafeCharacters, '')
    .replace(/\r\n?/g, '\n')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** The server's name for a tool, printable and short, for a line that says it was dropped. */
function printableName(name: string): string {
  const cleaned = name.replace(escapeSequences, '').replace(unsafeCharacters, '?').replace(/\s/g, ' ');
  const characters = [...cleaned];
  return characters.length <= 80
    ? cleaned
    : `${characters.slice(0, 60).join('')}… (${characters.length} characters)`;
}

/** Why a name is refused, or undefined. */
function nameProblem(name: string): { reason: DroppedToolReason; detail: string } | undefined {
  const length = [...name].length;
  if (length > upstreamToolLimits.maxNameLength) {
    return {
      reason: 'name_too_long',
      detail: `its name has ${length} characters (at most ${upstreamToolLimits.maxNameLength})`,
    };
  }
  if (length === 0 || name.trim() !== name || forbiddenInName.test(name)) {
    return {
      reason: 'name_characters',
      detail:
        'its name is empty, starts or ends with a space, or holds a control, quote, angle-bracket or backslash character',
    };
  }
  // `ns/tool` is a namespace; `../x`, `/etc/passwd` and `~/x` are paths (to a log, a file-based cache,
  // or a person reading an approval prompt).
  if (/^[/~.]/.test(name) || name.split('/').some((segment) => segment === '..' || segment === '.')) {
    return { reason: 'name_looks_like_a_path', detail: 'its name looks like a file path' };
  }
  if (reservedNames.has(name)) {
    return { reason: 'name_reserved', detail: `"${name}" is a name Patchbay answers itself` };
  }
  return undefined;
}

/**
 * JSON nesting depth of a value, counted without recursion (a schema 3,000 levels deep overflows
 * the stack of any recursive walk, `JSON.stringify` included), stopping once past `limit`.
 */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Why a schema is refused, or undefined; only called on schemas a server sent (plain JSON). */
function schemaProblem(
  schema: unknown,
  which: 'inputSchema' | 'outputSchema',
): { reason: DroppedToolReason; detail: string } | undefined {
  if (schema === undefined) return undefined;
  const { maxSchemaDepth, maxSchemaBytes } = upstreamToolLimits;
  if (depthOf(schema, maxSchemaDepth) > maxSchemaDepth) {
    return {
      reason: 'schema_too_deep',
      detail: `its ${which} is nested more than ${maxSchemaDepth} levels deep`,
    };
  }
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > maxSchemaBytes) {
    return {
      reason: 'schema_too_large',
      detail: `its ${which} is ${bytes} bytes of JSON (at most ${maxSchemaBytes})`,
    };
  }
  return undefined;
}

/**
 * The schema with every `description` and `title` string cleaned like a description: a model reads
 * them as documentation too. Only those keys change; `pattern`, `enum`, `const` and the rest keep
 * what the server validates against. Called on schemas within the depth limit only.
 */
function cleanSchemaText<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cleanSchemaText(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const cleaned: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    cleaned[key] =
      (key === 'description' || key === 'title') && typeof child === 'string'
        ? cleanServerText(child)
        : cleanSchemaText(child);
  }
  return cleaned as T;
}

/** The first text of a tool over the description limit, or undefined. */
function descriptionProblem(tool: McpTool): { reason: DroppedToolReason; detail: string } | undefined {
  const texts = [tool.description, tool.title, tool.annotations?.title];
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    const length = cleanServerText(text).length;
    if (length > upstreamToolLimits.maxDescriptionLength) {
      return {
        reason: 'description_too_long',
        detail: `its description has ${length} characters (at most ${upstreamToolLimits.maxDescriptionLength})`,
      };
    }
  }
  return undefined;
}

/**
 * Checks every tool one MCP server listed against {@link upstreamToolLimits}, before anything else
 * reads it: a tool over a limit, with a refused name, or a second tool of a name already listed is
 * dropped (and reported), every kept tool's description, titles and schema texts are cleaned with
 * {@link cleanServerText}. Never throws, whatever the server sent.
 */
export function screenUpstreamTools(tools: readonly McpTool[]): ScreenedTools {
  const kept: McpTool[] = [];
  const dropped: DroppedTool[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    const name = typeof tool.name === 'string' ? tool.name : String(tool.name);
    const problem =
      nameProblem(name) ??
      (seen.has(name)
        ? { reason: 'name_declared_twice' as const, detail: 'the server lists a tool of this name twice' }
        : undefined) ??
      descriptionProblem(tool) ??
      schemaProblem(tool.inputSchema, 'inputSchema') ??
      schemaProblem(tool.outputSchema, 'outputSchema');
    if (problem) {
      dropped.push({ name: printableName(name), ...problem });
      continue;
    }
    seen.add(name);
    kept.push(cleanTool(tool));
  }
  return { tools: kept, dropped };
}

function cleanTool(tool: McpTool): McpTool {
  const cleaned: McpTool = { ...tool, inputSchema: cleanSchemaText(tool.inputSchema) };
  if (typeof tool.description === 'string') cleaned.description = cleanServerText(tool.description);
  if (typeof tool.title === 'string') cleaned.title = cleanServerText(tool.title);
  if (tool.outputSchema !== undefined) cleaned.outputSchema = cleanSchemaText(tool.outputSchema);
  if (tool.annotations !== undefined) {
    cleaned.annotations = {
      ...tool.annotations,
      ...(typeof tool.annotations.title === 'string'
        ? { title: cleanServerText(tool.annotations.title) }
        : {}),
    };
  }
  return cleaned;
}
