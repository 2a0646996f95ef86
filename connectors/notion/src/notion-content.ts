import { z } from 'zod';
/** Notion's limit on the characters of one text object inside a rich text array. */
export const maxTextContentLength = 2000;
/** Notion's limit on block children in one request. */
export const maxBlocksPerRequest = 100;

/** A rich text item as Notion returns it; only what the connector reads. */
export interface RichTextItem {
  plain_text?: string;
}

/** A text object as Notion accepts it in a request. */
export interface TextRequest {
  type: 'text';
  text: { content: string };
}

/** A block as Notion accepts it in `children`; the connector writes text blocks only. */
export type BlockRequest = {
  object: 'block';
  type: 'paragraph' | 'heading_1' | 'heading_2' | 'heading_3' | 'bulleted_list_item' | 'numbered_list_item';
} & Record<string, unknown>;

/** Joins the plain text of a rich text array. */
export function plainText(richText: unknown): string {
  if (!Array.isArray(richText)) return '';
  return richText
    .map((item: RichTextItem) => (typeof item?.plain_text === 'string' ? item.plain_text : ''))
    .join('');
}

/** Splits text into text objects of at most {@link maxTextContentLength} characters each. */
export function textObjects(text: string): TextRequest[] {
  const chunks: TextRequest[] = [];
  // Split by code points so a surrogate pair (emoji) is never cut in half.
  const characters = Array.from(text);
  for (let start = 0; start < characters.length; start += maxTextContentLength) {
    chunks.push({
      type: 'text',
      text: { content: characters.slice(start, start + maxTextContentLength).join('') },
    });
  }
  return chunks;
}

function block(type: BlockRequest['type'], text: string): BlockRequest {
  return { object: 'block', type, [type]: { rich_text: textObjects(text) } };
}

/**
 * Turns plain text (a model's usual output) into Notion blocks: blank lines separate paragraphs,
 * `# `/`## `/`### ` lines become headings, `- `/`* ` lines bulleted items, `1. ` lines numbered items.
 */
export function textToBlocks(text: string): BlockRequest[] {
  const blocks: BlockRequest[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push(block('paragraph', paragraph.join('\n')));
    paragraph = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (line.trim() === '') {
      flush();
    } else if (heading) {
      flush();
      blocks.push(block(`heading_${heading[1]!.length}` as BlockRequest['type'], heading[2]!));
    } else if (bullet) {
      flush();
      blocks.push(block('bulleted_list_item', bullet[1]!));
    } else if (numbered) {
      flush();
      blocks.push(block('numbered_list_item', numbered[1]!));
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** A block as Notion returns it; only what the connector reads. */
export interface BlockResponse {
  id: string;
  type: string;
  has_children?: boolean;
  [type: string]: unknown;
}

/** One line of readable text for a block, prefixed like Markdown so structure survives. */
export function blockToText(value: BlockResponse): string {
  const content = value[value.type] as Record<string, unknown> | undefined;
  const text = plainText(content?.rich_text);
  switch (value.type) {
    case 'heading_1':
      return `# ${text}`;
    case 'heading_2':
      return `## ${text}`;
    case 'heading_3':
      return `### ${text}`;
    case 'bulleted_list_item':
      return `- ${text}`;
    case 'numbered_list_item':
      return `1. ${text}`;
    case 'to_do':
      return `[${content?.checked === true ? 'x' : ' '}] ${text}`;
    case 'quote':
      return `> ${text}`;
    case 'code':
      return `\`\`\`\n${text}\n\`\`\``;
    case 'child_page':
    case 'child_database':
      return `[${value.type === 'child_page' ? 'page' : 'database'}: ${String(content?.title ?? '')}]`;
    case 'divider':
      return '---';
    default:
      // Paragraphs, toggles, callouts and other text blocks read as their text; media as their type.
      return content && 'rich_text' in content ? text : `[${value.type}]`;
  }
}

/** A page's title: the plain text of its one `title` property. */
export function pageTitle(properties: unknown): string {
  if (typeof properties !== 'object' || properties === null) return '';
  for (const property of Object.values(properties as Record<string, { type?: string; title?: unknown }>)) {
    if (property?.type === 'title') return plainText(property.title);
  }
  return '';
}

/** A page property value reduced to what a reader needs (text, number, names, dates). */
export function propertyValue(property: Record<string, unknown>): unknown {
  const type = property.type as string;
  const value = property[type] as unknown;
  switch (type) {
    case 'title':
    case 'rich_text':
      return plainText(value);
    case 'select':
    case 'status':
      return (value as { name?: string } | null)?.name ?? null;
    case 'multi_select':
      return Array.isArray(value) ? value.map((option: { name?: string }) => option.name) : [];
    case 'date': {
      const date = value as { start?: string; end?: string | null } | null;
      if (!date) return null;
      return date.end ? `${date.start}/${date.end}` : (date.start ?? null);
    }
    case 'people':
      return Array.isArray(value)
        ? value.map((person: { name?: string; id?: string }) => person.name ?? person.id)
        : [];
    case 'number':
    case 'checkbox':
    case 'url':
    case 'email':
    case 'phone_number':
    case 'created_time':
    case 'last_edited_time':
      return value ?? null;
    case 'unique_id': {
      const id = value as { prefix?: string | null; number?: number | null } | null;
      return id?.number == null ? null : `${id.prefix ? `${id.prefix}-` : ''}${id.number}`;
    }
    default:
      return `[${type}]`;
  }
}

/** Every property of a page, by name, reduced with {@link propertyValue}. */
export function pageProperties(properties: unknown): Record<string, unknown> {
  if (typeof properties !== 'object' || properties === null) return {};
  return Object.fromEntries(
    Object.entries(properties as Record<string, Record<string, unknown>>).map(([name, property]) => [
      name,
      propertyValue(property),
    ]),
  );
}

/** Text a tool writes as Notion blocks, checked against Notion's per-request block limit before any request. */
export function notionTextSchema(description: string) {
  return z
    .string()
    .max(200_000)
    .describe(
      `${description}. Blank lines separate paragraphs; lines starting with "# ", "- " or "1. " become headings, bullets and numbered items`,
    )
    .refine((text) => textToBlocks(text).length <= maxBlocksPerRequest, {
      message: `at most ${maxBlocksPerRequest} paragraphs, headings or list items in one call; send the rest in another call`,
    });
}
