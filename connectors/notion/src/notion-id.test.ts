import { describe, expect, it } from 'vitest';
import { parseNotionId } from './notion-id.js';

const id = '59833787-2cf9-4fdf-8782-e53db20768a5';
const compact = id.replaceAll('-', '');

describe('parseNotionId', () => {
  it.each([
    ['a dashed id', id],
    ['an upper-case dashed id', id.toUpperCase()],
    ['32 hex digits', compact],
    ['a page URL with a slug', `https://www.notion.so/acme/Launch-plan-${compact}`],
    [
      'a URL with a query and fragment',
      `https://www.notion.so/${compact}?v=${'b'.repeat(32)}#${'c'.repeat(32)}`,
    ],
    ['a slug that ends in hex-like words', `https://www.notion.so/Cafe-Bad-${compact}`],
  ])('reads %s', (_label, value) => {
    expect(parseNotionId(value)).toBe(id);
  });

  it.each([
    ['a title', 'Launch plan'],
    ['too few digits', compact.slice(1)],
    ['a URL without an id', 'https://www.notion.so/acme/Launch-plan'],
    ['an empty string', ''],
  ])('rejects %s', (_label, value) => {
    expect(parseNotionId(value)).toBeUndefined();
  });
});
