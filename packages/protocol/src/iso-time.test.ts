import { describe, expect, it } from 'vitest';
import { toIsoSeconds } from './iso-time.js';

// `toIsoSeconds` remembers its last input and last second: whatever it remembers, every answer must be
// the one a fresh computation gives.
describe('toIsoSeconds', () => {
  it('answers each input as computed afresh, whatever came before', () => {
    const inputs: [Date | string | number, 'floor' | 'ceil'][] = [
      ['2026-11-21T15:00:00.400Z', 'floor'],
      ['2026-11-21T15:00:00.400Z', 'ceil'],
      ['2026-11-21T15:00:00.400Z', 'floor'],
      [new Date('2026-11-21T15:00:00.900Z'), 'floor'],
      [Date.parse('2026-11-21T15:00:01.000Z'), 'ceil'],
      ['2026-11-21T15:00:01Z', 'floor'],
      ['2026-11-21T15:00:01Z', 'floor'],
      [new Date('2027-01-01T00:00:00Z'), 'ceil'],
      ['2026-11-21T15:00:00.400Z', 'ceil'],
    ];
    const fresh = (time: Date | string | number, rounding: 'floor' | 'ceil') => {
      const ms = new Date(time).getTime();
      const seconds = rounding === 'ceil' ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
      return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
    };
    for (const [time, rounding] of inputs) expect(toIsoSeconds(time, rounding)).toBe(fresh(time, rounding));
    expect(toIsoSeconds('2026-11-21T15:00:00.400Z', 'ceil')).toBe('2026-11-21T15:00:01Z');
  });

  it('still refuses an invalid time right after a valid one', () => {
    expect(toIsoSeconds('2026-11-21T15:00:00Z')).toBe('2026-11-21T15:00:00Z');
    expect(() => toIsoSeconds('not a time')).toThrow('not a valid time');
    expect(() => toIsoSeconds('not a time')).toThrow('not a valid time');
    expect(() => toIsoSeconds(Number.POSITIVE_INFINITY)).toThrow('not a valid time');
  });
});
