import { interactiveErrorTypes } from '@patchbay/envelope';
import type { InteractiveFailure } from './retry-guidance.js';
import type { TurnInstruments } from './turn-metrics.js';
import type { TurnCall, TurnTrace } from './turn-types.js';

/** Records what a turn did: the trace it returns and the OpenTelemetry counters, kept in step. */
export interface TurnRecorder {
  readonly trace: TurnTrace;
  /** Adds a call and the envelope the model received for it. */
  call(record: TurnCall): void;
  /** Counts retry sequences closed with an outcome. */
  sequencesClosed(outcome: 'succeeded' | 'asked_user' | 'stopped', tools: readonly string[]): void;
  /** Adds a retry: the attempt, its temperature, the failures it reacts to and the guidance given. */
  retry(
    attempt: number,
    temperature: number | undefined,
    failures: readonly InteractiveFailure[],
    guidance: string,
    opened: number,
  ): void;
  /** Fills in the rates from the counts; call once at the end. */
  finish(): TurnTrace;
}

/** Starts the record of a turn. */
export function createTurnRecorder(
  start: Pick<
    TurnTrace,
    'turnId' | 'subject' | 'threadId' | 'capturedAt' | 'connectorStatus' | 'exposedTools'
  >,
  instruments: TurnInstruments,
): TurnRecorder {
  const trace: TurnTrace = {
    ...start,
    steps: [],
    calls: [],
    retries: [],
    outcome: 'replied',
    questions: [],
    counters: {
      toolResults: 0,
      interactiveErrors: 0,
      interactiveErrorRate: 0,
      retrySequences: 0,
      retrySuccesses: 0,
      retrySuccessRate: undefined,
      notOffered: 0,
    },
  };
  const { counters } = trace;
  return {
    trace,
    call(record) {
      trace.calls.push(record);
      counters.toolResults += 1;
      const { envelope } = record;
      if (record.skipped === 'not_offered') {
        counters.notOffered += 1;
        instruments.notOffered.add(1, { tool: record.toolName });
      }
      instruments.toolResults.add(1, {
        tool: record.toolName,
        outcome: envelope.ok ? 'ok' : envelope.error_type,
      });
      if (!envelope.ok && interactiveErrorTypes.has(envelope.error_type)) {
        counters.interactiveErrors += 1;
        instruments.interactiveErrors.add(1, { tool: record.toolName, error_type: envelope.error_type });
      }
    },
    sequencesClosed(outcome, tools) {
      for (const tool of tools) {
        instruments.retrySequences.add(1, { tool, outcome });
        if (outcome === 'succeeded') counters.retrySuccesses += 1;
      }
    },
    retry(attempt, temperature, failures, guidance, opened) {
      counters.retrySequences += opened;
      trace.retries.push({
        attempt,
        temperature,
        failures: failures.map(({ toolName, envelope }) => ({
          toolName,
          error_type: envelope.error_type,
          ...(envelope.missing ? { missing: envelope.missing.map((field) => field.field) } : {}),
          ...(envelope.issues ? { issues: envelope.issues.map((issue) => issue.path) } : {}),
        })),
        guidance,
      });
    },
    finish() {
      counters.interactiveErrorRate =
        counters.toolResults === 0 ? 0 : counters.interactiveErrors / counters.toolResults;
      counters.retrySuccessRate =
        counters.retrySequences === 0 ? undefined : counters.retrySuccesses / counters.retrySequences;
      return trace;
    },
  };
}
