import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeadlines } from './deadlines.js';

const liveTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('createDeadlines', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('expires each deadline once, when a timer of its length would fire, and never a cleared one', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines();
    const expired: string[] = [];
    deadlines.add(30_000, () => expired.push('a'));
    const cleared = deadlines.add(30_000, () => expired.push('cleared'));
    deadlines.add(45_000, () => expired.push('b'));
    deadlines.clear(cleared);
    vi.advanceTimersByTime(29_999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(14_999);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a', 'b']);
    vi.advanceTimersByTime(120_000);
    expect(expired).toEqual(['a', 'b']);
  });

  it('expires a shorter deadline added after a longer one at its own time', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines();
    const expired: string[] = [];
    deadlines.add(60_000, () => expired.push('long'));
    vi.advanceTimersByTime(1_000);
    deadlines.add(5_000, () => expired.push('short'));
    vi.advanceTimersByTime(4_999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['short']);
    vi.advanceTimersByTime(54_000);
    expect(expired).toEqual(['short', 'long']);
  });

  it('ends a deadline of no length (NaN) at once, as setTimeout would, and an endless one at the longest timer delay', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines();
    const expired: string[] = [];
    deadlines.add(Number.NaN, () => expired.push('none'));
    deadlines.add(Number.POSITIVE_INFINITY, () => expired.push('endless'));
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['none']);
    vi.advanceTimersByTime(2 ** 31 - 2);
    expect(expired).toEqual(['none', 'endless']);
  });

  it('expires on real timers too, a call after a settled one included', async () => {
    const deadlines = createDeadlines();
    const expired: number[] = [];
    deadlines.clear(deadlines.add(10, () => expired.push(0)));
    const started = performance.now();
    await new Promise<void>((resolve) =>
      deadlines.add(20, () => {
        expired.push(performance.now() - started);
        resolve();
      }),
    );
    expect(expired).toHaveLength(1);
    expect(expired[0]).toBeGreaterThanOrEqual(19);
  });

  it('keeps the process alive only while a deadline is pending', () => {
    const deadlines = createDeadlines();
    const before = liveTimers();
    const first = deadlines.add(60_000, () => undefined);
    expect(liveTimers()).toBe(before + 1);
    const second = deadlines.add(60_000, () => undefined);
    deadlines.clear(first);
    expect(liveTimers()).toBe(before + 1);
    deadlines.clear(second);
    expect(liveTimers()).toBe(before);
    // The next call holds it again, on the same timer.
    const third = deadlines.add(60_000, () => undefined);
    expect(liveTimers()).toBe(before + 1);
    deadlines.clear(third);
    expect(liveTimers()).toBe(before);
  });

  it('expires the other deadlines when one expiry throws, and passes the error on', () => {
    vi.useFakeTimers();
    const rethrown: (() => void)[] = [];
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((callback) => {
      rethrown.push(callback);
    });
    const deadlines = createDeadlines();
    const expired: string[] = [];
    deadlines.add(1_000, () => {
      throw new Error('expiry failed');
    });
    deadlines.add(1_000, () => expired.push('other'));
    vi.advanceTimersByTime(1_000);
    expect(expired).toEqual(['other']);
    expect(rethrown).toHaveLength(1);
    expect(() => rethrown[0]?.()).toThrow('expiry failed');
  });
});
