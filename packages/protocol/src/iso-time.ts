import { PatchbayError } from '@patchbay/envelope';

/**
 * Formats a time as ISO 8601 UTC without milliseconds (`2026-11-21T15:00:00Z`). Milliseconds are
 * dropped because they would make two renders of the same second differ and cost tokens for nothing.
 */
export function toIsoSeconds(time: Date | string | number, rounding: 'floor' | 'ceil' = 'floor'): string {
  const date = time instanceof Date ? time : new Date(time);
  const ms = date.getTime();
  if (Number.isNaN(ms)) {
    throw new PatchbayError('invalid_arguments', `not a valid time: ${String(time)}`);
  }
  // Deadlines round up: telling the model a limit lifts before it does invites a failing call.
  const seconds = rounding === 'ceil' ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}

/** A fixed time or a clock; tests inject one to control capture times and TTLs. */
export type Clock = Date | (() => Date);

/** Reads a {@link Clock}, defaulting to the system clock. */
export function readClock(clock: Clock | undefined): Date {
  if (clock === undefined) return new Date();
  return typeof clock === 'function' ? clock() : clock;
}
