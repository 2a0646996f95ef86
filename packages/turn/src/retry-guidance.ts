import type { ErrorEnvelope } from '@patchbay/envelope';

/** A failed call the retry loop reacts to: which tool, and the envelope it answered with. */
export interface InteractiveFailure {
  toolName: string;
  envelope: ErrorEnvelope;
}

/**
 * The message added before a retry: built from the envelopes' `missing` questions and `issues`
 * only (never their free text), so what the model is told follows the error types. Tagged, so a
 * model or a test can find it; it is part of this turn's prompt and is not stored in the thread.
 */
export function buildRetryGuidance(
  failures: readonly InteractiveFailure[],
  attempt: number,
  maxAttempts: number,
): string {
  const lines = [
    `<retry_guidance attempt="${attempt}" max_attempts="${maxAttempts}">`,
    'These tool calls could not run yet:',
  ];
  for (const { toolName, envelope } of failures) {
    if (envelope.error_type === 'needs_input') {
      lines.push(
        `- ${toolName} (needs_input): only the user can give these. Use a value only if the user already stated it in this conversation; never make one up. If they have not, do not call the tool again: ask them.`,
      );
      for (const field of envelope.missing ?? []) lines.push(`  - ${field.field}: ${field.question}`);
    } else {
      lines.push(`- ${toolName} (invalid_arguments): correct these arguments and call it again:`);
      for (const issue of envelope.issues ?? [])
        lines.push(`  - ${issue.path || '(arguments)'}: ${issue.message}`);
    }
  }
  lines.push(
    'A call with the same arguments gets the same answer and will not be sent again. Calls that already succeeded are done: do not repeat them.',
    '</retry_guidance>',
  );
  return lines.join('\n');
}

/** The questions the user must answer, from `needs_input` envelopes, without repeats. */
export function questionsOf(failures: readonly InteractiveFailure[]): string[] {
  const questions: string[] = [];
  for (const { envelope } of failures) {
    for (const field of envelope.missing ?? []) {
      if (!questions.includes(field.question)) questions.push(field.question);
    }
  }
  return questions;
}

/**
 * The reply that hands the conversation back to the user when the loop stops: the envelopes'
 * questions, or for arguments the model could not fix, what was wrong and a request to clarify.
 */
export function askUserReply(failures: readonly InteractiveFailure[]): string {
  const questions = questionsOf(failures);
  const lines: string[] = [];
  if (questions.length > 0) {
    const tools = [
      ...new Set(failures.filter((f) => f.envelope.error_type === 'needs_input').map((f) => f.toolName)),
    ];
    lines.push(`Before I can run ${tools.join(' and ')}, I need a bit more information:`);
    for (const question of questions) lines.push(`- ${question}`);
  }
  const invalid = failures.filter((failure) => failure.envelope.error_type === 'invalid_arguments');
  for (const { toolName, envelope } of invalid) {
    const issues = (envelope.issues ?? []).map((issue) => `${issue.path || 'arguments'}: ${issue.message}`);
    lines.push(
      `I could not get the details for ${toolName} right${issues.length ? ` (${issues.join('; ')})` : ''}. Could you tell me exactly what you want?`,
    );
  }
  return lines.join('\n');
}

/** Appends the questions a reply does not already contain word for word. */
export function withQuestions(reply: string, questions: readonly string[]): string {
  const missing = questions.filter((question) => !reply.includes(question));
  if (missing.length === 0) return reply;
  const list = missing.map((question) => `- ${question}`).join('\n');
  return reply.trim()
    ? `${reply.trim()}\n\nTo go on I need to know:\n${list}`
    : `To go on I need to know:\n${list}`;
}
