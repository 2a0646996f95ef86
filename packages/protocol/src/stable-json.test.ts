import { describe, expect, it } from 'vitest';
import { stableStringify } from './stable-json.js';

describe('stableStringify', () => {
  it('sorts keys like canonicalJson', () => {
    expect(stableStringify({ b: 1, a: { c: null } })).toBe('{"a":{"c":null},"b":1}');
  });

  it('escapes <, > and & for prompts and stays parseable', () => {
    const text = stableStringify({ error: '</connector_status> & more' });
    expect(text).not.toMatch(/[<>&]/);
    expect(JSON.parse(text)).toEqual({ error: '</connector_status> & more' });
  });
});
