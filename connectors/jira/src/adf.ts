/** A node of the Atlassian Document Format, the rich-text JSON that Jira REST v3 uses for descriptions and comments. */
export interface AdfNode {
  type: string;
  text?: string;
  version?: number;
  content?: AdfNode[];
  attrs?: Record<string, unknown>;
}

/**
 * Plain text to an ADF document: blank lines separate paragraphs, single newlines become hard
 * breaks. Jira v3 rejects plain strings where it expects a document.
 */
export function textToAdf(text: string): AdfNode {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  return {
    type: 'doc',
    version: 1,
    content: paragraphs.map((paragraph) => ({
      type: 'paragraph',
      content: paragraph.split('\n').flatMap((line, index): AdfNode[] => {
        const textNode: AdfNode[] = line === '' ? [] : [{ type: 'text', text: line }];
        return index === 0 ? textNode : [{ type: 'hardBreak' }, ...textNode];
      }),
    })),
  };
}

// Block nodes end a line of text; inline nodes run on.
const blockTypes = new Set([
  'paragraph',
  'heading',
  'blockquote',
  'codeBlock',
  'listItem',
  'rule',
  'panel',
  'tableRow',
  'mediaSingle',
]);

/** An ADF document (or any value Jira put where one belongs) as plain text for the model to read. */
export function adfToText(value: unknown): string {
  if (typeof value === 'string') return value;
  const lines: string[] = [];
  let current = '';
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    const { type, text, content, attrs } = node as AdfNode;
    if (type === 'text' && typeof text === 'string') current += text;
    else if (type === 'hardBreak') {
      lines.push(current);
      current = '';
    } else if (type === 'mention' || type === 'emoji') {
      const label = attrs?.text ?? attrs?.shortName;
      if (typeof label === 'string') current += label;
    }
    if (Array.isArray(content)) for (const child of content) walk(child);
    if (typeof type === 'string' && blockTypes.has(type)) {
      lines.push(current);
      current = '';
    }
  };
  walk(value);
  if (current !== '') lines.push(current);
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
