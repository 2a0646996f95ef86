/** A running call's time limit, as {@link Deadlines.add} returns it. */
export interface Deadline {
  /** When it expires, on the `performance.now()` clock. */
  readonly at: number;
}

/**
 * The time limits of the calls running through one gate, on one timer. A timer per call costs more
 * than its callback: Node keeps a list per duration and drops the list when its last timer goes, so
 * calls made one after another each built and dropped a list (and touched the timer queue twice).
 * One timer, armed for the earliest limit, lets calls come and go with a set insertion and deletion.
 */
export interface Deadlines {
  /** Calls `expire` once `ms` have passed, unless the deadline is cleared first. */
  add(ms: number, expire: () => void): Deadline;
  /** Forgets a deadline (its call settled); `expire` is never called for it. */
  clear(deadline: Deadline): void;
}

interface Entry extends Deadline {
  readonly expire: () => void;
}

// The longest delay `setTimeout` takes; a longer one would fire after 1 ms.
const maxDelayMs = 2 ** 31 - 1;

/**
 * Creates the deadline timer of one gate. The timer keeps the process alive only while a deadline is
 * pending, as a call's own timer did. Expiry follows the timer, not a clock read when it fires, so a
 * deadline ends when a `setTimeout` of its length would have (faked timers included).
 */
export function createDeadlines(): Deadlines {
  const pending = new Set<Entry>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedAt = Number.POSITIVE_INFINITY;

  const arm = (at: number) => {
    if (timer !== undefined) clearTimeout(timer);
    armedAt = at;
    // Rounded up: Node counts whole milliseconds and drops the fraction, which would end a deadline
    // up to a millisecond before a `setTimeout` of its length.
    timer = setTimeout(fire, Math.min(maxDelayMs, Math.max(0, Math.ceil(at - performance.now()))));
  };

  const fire = () => {
    // The timer was armed for `armedAt`: that deadline and any earlier one have come; a later one,
    // however close, waits for its own time.
    const until = armedAt;
    timer = undefined;
    armedAt = Number.POSITIVE_INFINITY;
    const due: Entry[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const entry of pending) {
      if (entry.at <= until) due.push(entry);
      else if (entry.at < next) next = entry.at;
    }
    for (const entry of due) pending.delete(entry);
    if (next !== Number.POSITIVE_INFINITY) arm(next);
    for (const entry of due) {
      try {
        entry.expire();
      } catch (error) {
        // One call's failing expiry must not keep the others running past their limits; the error
        // still reaches the process as an uncaught one, as it would from a timer of its own.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };

  return {
    add(ms, expire) {
      // No length (NaN) ends at once, as `setTimeout` would; a longer one than a timer takes (an endless
      // one) ends at the longest delay, where `setTimeout` would end it after 1 ms.
      const length = Number.isNaN(ms) ? 0 : Math.min(ms, maxDelayMs);
      const entry: Entry = { at: performance.now() + length, expire };
      pending.add(entry);
      if (entry.at < armedAt) arm(entry.at);
      else if (pending.size === 1) timer?.ref();
      return entry;
    },
    clear(deadline) {
      if (pending.delete(deadline as Entry) && pending.size === 0) timer?.unref();
    },
  };
}
