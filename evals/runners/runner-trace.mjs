// The trace a runner other than runTurn hands the checks: the same shape as runTurn's, built from
// what the runner recorded (its steps, the calls the gate answered, the status its first step saw).
import { randomUUID } from 'node:crypto';

/**
 * A TurnTrace from a runner's record. `first` is the status its first model call saw
 * (`capturedAt`, `connectorStatus`, `exposedTools`); `askedUser` whether the turn ended with a
 * question to the person; `extra` fields the runner adds (the SACP chain's own record).
 */
export function runnerTrace({
  options,
  threadId,
  first,
  steps,
  calls,
  retries = [],
  questions,
  askedUser,
  extra,
}) {
  const interactive = calls.filter(
    (call) => !call.envelope.ok && ['needs_input', 'invalid_arguments'].includes(call.envelope.error_type),
  ).length;
  return {
    turnId: randomUUID(),
    subject: options.subject,
    threadId,
    capturedAt: first?.capturedAt ?? new Date().toISOString(),
    connectorStatus: first?.connectorStatus ?? {},
    exposedTools: first?.exposedTools ?? [],
    steps,
    calls,
    retries,
    outcome: options.signal?.aborted ? 'aborted' : askedUser ? 'asked_user' : 'replied',
    questions,
    counters: {
      toolResults: calls.length,
      interactiveErrors: interactive,
      interactiveErrorRate: calls.length === 0 ? 0 : interactive / calls.length,
      retrySequences: 0,
      retrySuccesses: 0,
      retrySuccessRate: undefined,
      notOffered: calls.filter((call) => call.skipped === 'not_offered').length,
    },
    ...extra,
  };
}
