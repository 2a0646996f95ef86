/** Settings of the reconnect backoff. */
export interface BackoffSettings {
  /** Delay before the first reconnect attempt, in milliseconds. */
  initialDelayMs: number;
  /** Upper bound of any delay, in milliseconds. */
  maxDelayMs: number;
}

/** Default reconnect backoff: 0.5 s, 1 s, 2 s … up to 30 s. */
export const defaultBackoff: BackoffSettings = { initialDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Delay before reconnect attempt `attempt` (0-based): doubling from the initial delay, capped,
 * with ±25 % jitter so servers that dropped together do not all come back in the same instant.
 */
export function backoffDelay(
  attempt: number,
  settings: BackoffSettings = defaultBackoff,
  random: () => number = Math.random,
): number {
  const base = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** Math.min(attempt, 30));
  const jittered = base * (0.75 + 0.5 * random());
  return Math.round(Math.min(settings.maxDelayMs, jittered));
}
