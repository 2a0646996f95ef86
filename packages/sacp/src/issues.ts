/** One problem found while reading or validating a reply; `path` is dotted (`data.score`), '' for the whole reply. */
export interface SacpIssue {
  path: string;
  message: string;
}

/** Renders issues as short lines, `path: message`, in the given order. */
export function formatIssues(issues: readonly SacpIssue[]): string[] {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
}
