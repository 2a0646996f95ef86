import { PatchbayError } from '@patchbay/envelope';
import type { RunTurnOptions } from './turn-types.js';

/** The limits and retry settings of one turn, validated, with the defaults filled in. */
export interface TurnSettings {
  maxSteps: number;
  maxCallsPerStep: number;
  maxResultChars: number;
  modelTimeoutMs: number;
  /** Temperature of the first attempt; the provider's default when undefined. */
  temperature: number | undefined;
  maxAttempts: number;
  /** A fixed temperature for every retry, instead of the rising one. */
  retryTemperature: number | undefined;
  temperatureStep: number;
  needsInput: 'retry' | 'ask';
  requireUserGroundedInput: boolean;
}

/** Bounds of the numeric options: what is accepted, and the default when the option is absent. */
const bounds = {
  maxSteps: { min: 1, max: 100, integer: true, fallback: 8 },
  maxCallsPerStep: { min: 1, max: 100, integer: true, fallback: 16 },
  // 20,000 characters is ~5,000 tokens: room for a page of results, not a dump of megabytes.
  maxResultChars: { min: 1_000, max: 10_000_000, integer: true, fallback: 20_000 },
  // Above the hour a hung provider is indistinguishable from a turn nobody is waiting for.
  modelTimeoutMs: { min: Number.MIN_VALUE, max: 3_600_000, integer: false, fallback: 120_000 },
  'retry.totalAttempts': { min: 1, max: 21, integer: true, fallback: 3 },
  'retry.maxAttempts': { min: 0, max: 20, integer: true, fallback: undefined },
  'retry.temperatureStep': { min: 0, max: 1, integer: false, fallback: 0.2 },
  // Providers accept 0–2 (some only 0–1); anything else is a mistake, not a style.
  temperature: { min: 0, max: 2, integer: false, fallback: undefined },
  'retry.temperature': { min: 0, max: 2, integer: false, fallback: undefined },
} as const;

type BoundedOption = keyof typeof bounds;

function bounded<Name extends BoundedOption>(
  name: Name,
  value: number | undefined,
): number | (typeof bounds)[Name]['fallback'] {
  const rule = bounds[name];
  if (value === undefined) return rule.fallback;
  const kind = rule.integer ? 'an integer' : 'a number';
  const lowest = rule.min === Number.MIN_VALUE ? 'above 0' : `from ${rule.min}`;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (rule.integer && !Number.isInteger(value)) ||
    value < rule.min ||
    value > rule.max
  ) {
    throw new PatchbayError(
      'invalid_turn_options',
      `runTurn: ${name} must be ${kind} ${lowest} to ${rule.max}; got ${String(value)}.`,
    );
  }
  return value;
}

/**
 * Retries after the first attempt: `totalAttempts - 1`, or the deprecated `maxAttempts` as given.
 * Both set is a contradiction only a person can resolve, so it throws.
 */
function retriesOf(retry: NonNullable<RunTurnOptions['retry']>): number {
  const legacy = bounded('retry.maxAttempts', retry.maxAttempts);
  if (legacy !== undefined) warnMaxAttemptsDeprecated();
  const total = bounded('retry.totalAttempts', retry.totalAttempts);
  if (legacy !== undefined && retry.totalAttempts !== undefined) {
    throw new PatchbayError(
      'invalid_turn_options',
      'runTurn: set retry.totalAttempts or the deprecated retry.maxAttempts, not both.',
    );
  }
  return legacy ?? total - 1;
}

let maxAttemptsWarned = false;

/**
 * Says once per process, through Node's own warning channel (`--no-deprecation` silences it,
 * `--throw-deprecation` makes it fatal), that `retry.maxAttempts` is deprecated: a turn runs per user
 * message, and a warning per turn would bury the logs.
 */
function warnMaxAttemptsDeprecated(): void {
  if (maxAttemptsWarned) return;
  maxAttemptsWarned = true;
  process.emitWarning(
    'runTurn: retry.maxAttempts is deprecated; use retry.totalAttempts, which counts the first attempt too (totalAttempts = maxAttempts + 1).',
    { type: 'DeprecationWarning', code: 'PATCHBAY_RETRY_MAX_ATTEMPTS' },
  );
}

/**
 * Validates the turn's limits and fills in the defaults. Throws a `PatchbayError`
 * (`invalid_turn_options`) naming the option, before anything runs: `maxSteps: 1e9` is a mistake
 * that would otherwise let a looping model run for hours.
 */
export function resolveTurnSettings(options: RunTurnOptions): TurnSettings {
  const retry = options.retry ?? {};
  return {
    maxSteps: bounded('maxSteps', options.maxSteps),
    maxCallsPerStep: bounded('maxCallsPerStep', options.maxCallsPerStep),
    maxResultChars: bounded('maxResultChars', options.maxResultChars),
    modelTimeoutMs: bounded('modelTimeoutMs', options.modelTimeoutMs),
    temperature: bounded('temperature', options.temperature),
    maxAttempts: retriesOf(retry),
    retryTemperature: bounded('retry.temperature', retry.temperature),
    temperatureStep: bounded('retry.temperatureStep', retry.temperatureStep),
    needsInput: retry.needsInput ?? 'retry',
    requireUserGroundedInput: retry.requireUserGroundedInput ?? true,
  };
}

/**
 * The temperature of the `attempt`-th retry: the fixed `retry.temperature`, else the turn's
 * temperature (0.5 when unset) raised by `temperatureStep` per attempt, capped at 1. The one place
 * this formula lives; the step and the trace's retry record both read it.
 */
export function retryTemperature(settings: TurnSettings, attempt: number): number {
  return (
    settings.retryTemperature ??
    Math.min(1, (settings.temperature ?? 0.5) + settings.temperatureStep * attempt)
  );
}

/**
 * The temperature of the next model call: raised only while a retry is open; once the failing
 * calls succeeded the turn goes on at its own temperature.
 */
export function stepTemperature(
  settings: TurnSettings,
  attempt: number,
  retryOpen: boolean,
): number | undefined {
  return attempt === 0 || !retryOpen ? settings.temperature : retryTemperature(settings, attempt);
}
