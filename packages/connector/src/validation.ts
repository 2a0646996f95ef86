import type { z } from 'zod';

/** Formats zod issues as `field.path: message; ...` so a definition error names the bad field. */
export function formatDefinitionIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
