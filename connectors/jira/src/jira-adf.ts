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

function children(node: AdfNode): AdfNode[] {
  return Array.isArray(node.content)
    ? node.content.filter((child): child is AdfNode => child !== null && typeof child === 'object')
    : [];
}

function label(node: AdfNode, ...keys: string[]): string {
  for (const key of keys) {
    const value = node.attrs?.[key];
    if (typeof value === 'string') return value;
  }
  return '';
}

function render(node: AdfNode): string {
  const parts = children(node);
  const blocks = (separator: string) =>
    parts
      .map(render)
      .filter((text) => text !== '')
      .join(separator);
  switch (node.type) {
    case 'text':
      return typeof node.text === 'string' ? node.text : '';
    case 'hardBreak':
      return '\n';
    case 'mention':
      return label(node, 'text');
    case 'emoji':
      return label(node, 'text', 'shortName');
    case 'inlineCard':
    case 'blockCard':
      return label(node, 'url');
    case 'doc':
    case 'blockquote':
    case 'panel':
    case 'expand':
      return blocks('\n\n');
    case 'bulletList':
    case 'orderedList':
      return parts
        .map((item, index) => `${node.type === 'orderedList' ? `${index + 1}.` : '-'} ${render(item)}`)
        .join('\n');
    case 'listItem':
    case 'table':
      return blocks('\n');
    case 'tableRow':
      return blocks(' | ');
    case 'rule':
      return '---';
    default:
      // Paragraphs, headings, code blocks, table cells and nodes added later: their text runs on.
      return parts.map(render).join('');
  }
}

/** An ADF document (or any value Jira put where one belongs) as plain text for the model to read. */
export function adfToText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return '';
  return render(value as AdfNode).trim();
}
