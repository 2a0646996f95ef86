import { describe, expect, it } from 'vitest';
import { databasePageObject, pageContent } from './fixtures/notion-responses.js';
import {
  type BlockResponse,
  blockToText,
  pageProperties,
  textObjects,
  textToBlocks,
} from './notion-content.js';

describe('textToBlocks', () => {
  it('keeps lines of one paragraph together and splits paragraphs at blank lines', () => {
    const blocks = textToBlocks('First line\nsecond line\n\n\nNext paragraph\r\n');
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'paragraph']);
    expect(blocks[0]).toEqual({
      object: 'block',
      type: 'paragraph',
      paragraph: { rich_text: [{ type: 'text', text: { content: 'First line\nsecond line' } }] },
    });
  });

  it('recognises headings, bullets and numbered items', () => {
    expect(textToBlocks('# A\n## B\n### C\n#### D\n- e\n* f\n2) g').map((block) => block.type)).toEqual([
      'heading_1',
      'heading_2',
      'heading_3',
      'paragraph',
      'bulleted_list_item',
      'bulleted_list_item',
      'numbered_list_item',
    ]);
  });

  it('makes no block of empty text', () => {
    expect(textToBlocks('\n  \n')).toEqual([]);
  });
});

describe('textObjects', () => {
  it('never cuts an emoji in half at the 2,000 character limit', () => {
    const text = `${'a'.repeat(1999)}🚀b`;
    const chunks = textObjects(text).map((chunk) => chunk.text.content);
    expect(chunks).toEqual([`${'a'.repeat(1999)}🚀`, 'b']);
  });
});

describe('reading pages', () => {
  it('renders blocks as Markdown-like lines', () => {
    const lines = (pageContent().results as BlockResponse[]).map(blockToText);
    expect(lines).toEqual([
      '## Goals',
      'Ship the beta by April.',
      '[x] Write release notes',
      '- Invite 50 testers',
      '[page: Retro notes]',
      '[image]',
    ]);
  });

  it('reduces property values and names unsupported types', () => {
    expect(
      pageProperties({
        ...databasePageObject().properties,
        Owner: {
          id: 'o',
          type: 'people',
          people: [
            { object: 'user', id: 'u1', name: 'Ada' },
            { object: 'user', id: 'u2' },
          ],
        },
        Window: { id: 'w', type: 'date', date: { start: '2026-04-01', end: '2026-04-05' } },
        Key: { id: 'k', type: 'unique_id', unique_id: { prefix: 'ENG', number: 42 } },
        Files: { id: 'f', type: 'files', files: [] },
      }),
    ).toEqual({
      Name: 'Fix login bug',
      Status: 'In progress',
      Tags: ['auth', 'web'],
      Due: '2026-04-10',
      Estimate: 3,
      Done: false,
      Owner: ['Ada', 'u2'],
      Window: '2026-04-01/2026-04-05',
      Key: 'ENG-42',
      Files: '[files]',
    });
  });
});
