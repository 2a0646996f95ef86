import { PatchbayError } from '@patchbay/envelope';

/** The last string formatted, so the capture time read back from a snapshot costs a comparison. */
const lastInput = { text: '', rounding: 'floor' as 'floor' | 'ceil', formatted: '' };
/** The last whole second formatted (a pure function of it: no invalidation needed). */
const lastSecond = { seconds: Number.NaN, formatted: '' };

/**
 * Formats a time as ISO 8601 UTC without milliseconds (`2026-11-21T15:00:00Z`). Milliseconds are
 * dropped because they would make two renders of the same second differ and cost tokens for nothing.
 */
export function toIsoSeconds(time: Date | string | number, rounding: 'floor' | 'ceil' = 'floor'): string {
  // A turn formats the same few instants over and over (capture time, current time, the block's
  // attribute): the last string in and the last second out are remembered, which saves a Date and
  // its `toISOString` each time (measured: the largest self time of a turn's status step).
  if (typeof time === 'string' && time === lastInput.text && rounding === lastInput.rounding) {
    return lastInput.formatted;
  }
  const ms =
    typeof time === 'string'
      ? Date.parse(time)
      : time instanceof Date
        ? time.getTime()
        : new Date(time).getTime();
  if (Number.isNaN(ms)) {
    throw new PatchbayError('invalid_arguments', `not a valid time: ${String(time)}`);
  }
  // Deadlines round up: telling the model a limit lifts before it does invites a failing call.
  const seconds = rounding === 'ceil' ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  let formatted: string;
  if (seconds === lastSecond.seconds) formatted = lastSecond.formatted;
  else {
    formatted = `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
    lastSecond.seconds = seconds;
    lastSecond.formatted = formatted;
  }
  if (typeof time === 'string') {
    lastInput.text = time;
    lastInput.rounding = rounding;
    lastInput.formatted = formatted;
  }
  return formatted;
}

/** A fixed time or a clock; tests inject one to control capture times and TTLs. */
export type Clock = Date | (() => Date);

/** Reads a {@link Clock}, defaulting to the system clock. */
export function readClock(clock: Clock | undefined): Date {
  if (clock === undefined) return new Date();
  return typeof clock === 'function' ? clock() : clock;
}
