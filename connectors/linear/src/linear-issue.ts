/** The issue fields the tools select, as Linear's GraphQL schema names them. */
export interface LinearIssueNode {
  id: string;
  identifier: string;
  title: string;
  url?: string;
  priority?: number;
  priorityLabel?: string;
  updatedAt?: string;
  state?: { name?: string; type?: string } | null;
  assignee?: { name?: string } | null;
  team?: { key?: string; name?: string } | null;
}

/** The selection shared by search results and single issues. */
export const issueSummarySelection = `
  id identifier title url priority priorityLabel updatedAt
  state { name type }
  assignee { name }
  team { key name }`;

/** An issue as the model reads it: snake_case, nulls for empty fields. */
export function issueSummary(issue: LinearIssueNode) {
  return {
    id: issue.id,
    identifier: issue.identifier,
    title: issue.title,
    state: issue.state?.name ?? null,
    state_type: issue.state?.type ?? null,
    priority: issue.priorityLabel ?? null,
    assignee: issue.assignee?.name ?? null,
    team: issue.team?.key ?? null,
    updated_at: issue.updatedAt ?? null,
    url: issue.url ?? null,
  };
}
