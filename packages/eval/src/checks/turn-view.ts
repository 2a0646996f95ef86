// What every check of a turn reads: the turn, its trace, and what the scenario says around it.
import type { TurnStep } from '@patchbay/turn';
import type { ServiceRequest } from '../config.js';
import type { RunCall, RunTrace, TurnRun } from '../run-types.js';

/** What the checks of a turn know of its scenario and run beyond the turn itself. */
export interface TurnCheckContext {
  /** Connectors an admin disabled at any point of the scenario: never named in a reply. */
  disabled: readonly string[];
  /** Connectors disabled when this turn starts: never shown nor offered. */
  disabledNow?: readonly string[];
  /** Connector id → display name. */
  names: Readonly<Record<string, string>>;
  /** Tool name → connector id. */
  owners?: Readonly<Record<string, string>>;
  /** Tool name → effect (`read`, `write`, `destructive`). */
  effects: Readonly<Record<string, string | undefined>>;
  /** The scenario's adversary: it calls tools it was not offered on purpose. */
  adversary?: string | undefined;
  /** Whether a text holds a secret of the run (see `secretFinder`). */
  holdsSecret?: (text: unknown) => boolean;
  /** The scenario's `turn_options.max_result_chars`. */
  maxResultChars?: number | undefined;
}

/** One check's verdict, before it gets its turn. */
export interface Verdict {
  name: string;
  pass: boolean;
  reason: string;
}

/** A verdict: the check's name, and when it failed, why. */
export const verdict = (name: string, pass: boolean, reason: string): Verdict => ({
  name,
  pass,
  reason: pass ? `${name}: ok` : `${name}: ${reason}`,
});

/** A turn as every check reads it, with the facts several checks share worked out once. */
export interface TurnView {
  turn: TurnRun;
  trace: RunTrace;
  reply: string;
  steps: TurnStep[];
  /** The tools the model called, in order. */
  attempted: string[];
  /** The tools whose call was sent and succeeded. */
  succeeded: string[];
  holdsSecret: (text: unknown) => boolean;
  context: TurnCheckContext;
}

export const lower = (text: unknown) => String(text).toLowerCase();

/** Whether the reply says `term` as a whole word, in any case. */
export function mentions(reply: string, term: string): boolean {
  return new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(reply);
}

/** `METHOD url` without the query string. */
export const requestLine = (request: ServiceRequest) => `${request.method} ${request.url.split('?')[0]}`;

/** A field of an envelope (or a refused request) by name. */
export const envelopeField = (call: RunCall | undefined, key: string): unknown =>
  call ? (call.envelope as Readonly<Record<string, unknown>>)[key] : undefined;

/** The first 300 characters of the reply, as failing reply checks show it. */
export const replyReason = (view: TurnView) => `reply: ${view.reply.slice(0, 300)}`;

/** Where a list of per-step values first matched: index 0 is the turn's start, then each step. */
export const atStep = (index: number, start = 'the start') => (index === 0 ? start : `step ${index - 1}`);
