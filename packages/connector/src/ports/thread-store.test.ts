import { describe, expect, it } from 'vitest';
import { messageSentAt } from './thread-store.js';

// Parts held in variables, as a store receives them: extra fields beside `type` are the message's own.
const stamped = [
  { type: 'text', text: '[2026-11-21T15:00:00Z]' },
  { type: 'text', text: 'hi' },
];
const unstamped = [{ type: 'text', text: 'no stamp' }];

describe('messageSentAt', () => {
  it('reads the leading stamp part of a user or assistant message', () => {
    expect(messageSentAt({ role: 'user', content: stamped })).toBe('2026-11-21T15:00:00Z');
    expect(messageSentAt({ role: 'assistant', content: stamped })).toBe('2026-11-21T15:00:00Z');
  });

  it('reads the prefix of a system message and nothing from an unstamped one', () => {
    expect(messageSentAt({ role: 'system', content: '[2026-11-21T15:00:00Z] Context' })).toBe(
      '2026-11-21T15:00:00Z',
    );
    expect(
      messageSentAt({ role: 'user', content: '[2026-11-21T15:00:00Z] typed by the user' }),
    ).toBeUndefined();
    expect(messageSentAt({ role: 'user', content: unstamped })).toBeUndefined();
    expect(messageSentAt({ role: 'tool', content: [] })).toBeUndefined();
  });
});
