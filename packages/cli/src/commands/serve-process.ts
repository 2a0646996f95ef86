import { usageError } from '../cli-error.js';

/** A whole-number flag between `min` and `max`, or undefined when absent; a usage error otherwise. */
export function parseInteger(value: unknown, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < min || number > max) {
    throw usageError(`${flag} must be a whole number from ${min} to ${max}, not "${text}".`);
  }
  return number;
}

/** Resolves on SIGINT/SIGTERM, or when `also` fires; removes its listeners afterwards. */
export function untilStopped(also?: (stop: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    also?.(stop);
  });
}
