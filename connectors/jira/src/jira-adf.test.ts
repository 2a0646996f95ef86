import { describe, expect, it } from 'vitest';
import { adfToText, textToAdf } from './jira-adf.js';

describe('ADF', () => {
  it('round-trips paragraphs and line breaks', () => {
    const text = 'First line\nsecond line\n\nNext paragraph';
    expect(adfToText(textToAdf(text))).toBe(text);
  });

  it('drops empty paragraphs and normalises Windows line ends', () => {
    expect(textToAdf('a\r\n\r\n\r\n\r\nb')).toEqual({
      type: 'doc',
      version: 1,
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'a' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'b' }] },
      ],
    });
  });

  it('reads headings, lists, mentions and emoji as text', () => {
    const document = {
      type: 'doc',
      version: 1,
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Steps' }] },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Open' }] }] },
            {
              type: 'listItem',
              content: [
                {
                  type: 'paragraph',
                  content: [
                    { type: 'mention', attrs: { id: '1', text: '@Ana' } },
                    { type: 'text', text: ' clicks ' },
                    { type: 'emoji', attrs: { shortName: ':tada:' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(adfToText(document)).toBe('Steps\n\n- Open\n- @Ana clicks :tada:');
  });

  it('passes a plain string through and reads nothing from junk', () => {
    expect(adfToText('already text')).toBe('already text');
    expect(adfToText(null)).toBe('');
    expect(adfToText({ type: 'doc', content: 'not an array' })).toBe('');
  });
});
