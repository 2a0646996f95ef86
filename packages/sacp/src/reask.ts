import type { SacpIssue } from './issues.js';
import { formatIssues } from './issues.js';

const maxListedIssues = 10;

/**
 * Builds the follow-up message that asks a model to send its reply again, listing what was wrong.
 * Deterministic; lists at most ten issues so a wildly wrong reply does not flood the prompt.
 */
export function buildReaskInstruction(issues: readonly SacpIssue[]): string {
  const lines = formatIssues(issues.slice(0, maxListedIssues)).map((line) => `- ${line}`);
  if (issues.length > maxListedIssues) lines.push(`- …and ${issues.length - maxListedIssues} more`);
  return [
    'Your last reply could not be accepted by the workflow:',
    ...(lines.length > 0 ? lines : ['- it did not follow the reply format']),
    'Send the whole reply again as one JSON object in the required format, with these problems fixed.',
    'Keep the same status unless fixing the problems changes it. Do not add any text outside the JSON object.',
  ].join('\n');
}
