import { z } from 'zod';
import { adfToText } from './jira-adf.js';

/** A Jira issue key (`PROJ-123`) or numeric id; checked here so a malformed one never reaches a URL. */
export function issueKeySchema(question: string) {
  return z
    .string()
    .trim()
    .regex(
      /^(?:[A-Za-z][A-Za-z0-9_]*-\d+|\d+)$/,
      'must be an issue key such as PROJ-123 or a numeric issue id',
    )
    .describe('Issue key such as PROJ-123 (or the numeric issue id)')
    .meta({ question });
}

/** The fields of a Jira issue the tools ask for, as REST v3 returns them. */
export interface JiraIssueFields {
  summary?: string;
  description?: unknown;
  status?: { name?: string; statusCategory?: { key?: string; name?: string } } | null;
  assignee?: { displayName?: string; accountId?: string } | null;
  reporter?: { displayName?: string; accountId?: string } | null;
  priority?: { name?: string } | null;
  issuetype?: { name?: string } | null;
  project?: { key?: string; name?: string } | null;
  labels?: string[];
  created?: string;
  updated?: string;
}

/** One issue as REST v3 returns it from `GET /issue/{key}` and `/search/jql`. */
export interface JiraIssue {
  id: string;
  key: string;
  self?: string;
  fields?: JiraIssueFields;
}

/** Fields requested for an issue summary (search results). */
export const summaryFields = ['summary', 'status', 'assignee', 'priority', 'issuetype', 'updated'];
/** Fields requested for one issue in full. */
export const detailFields = [...summaryFields, 'description', 'reporter', 'project', 'labels', 'created'];

/** An issue as the model reads it: snake_case, plain text, nulls for empty fields. */
export function issueSummary(issue: JiraIssue, url: string | undefined) {
  const fields = issue.fields ?? {};
  return {
    key: issue.key,
    id: issue.id,
    summary: fields.summary ?? '',
    status: fields.status?.name ?? null,
    status_category: fields.status?.statusCategory?.key ?? null,
    issue_type: fields.issuetype?.name ?? null,
    priority: fields.priority?.name ?? null,
    assignee: fields.assignee?.displayName ?? null,
    updated: fields.updated ?? null,
    ...(url ? { url } : {}),
  };
}

/** An issue with its description and people, for `jira_get_issue`. */
export function issueDetail(issue: JiraIssue, url: string | undefined) {
  const fields = issue.fields ?? {};
  return {
    ...issueSummary(issue, url),
    project: fields.project?.key ?? null,
    reporter: fields.reporter?.displayName ?? null,
    labels: fields.labels ?? [],
    created: fields.created ?? null,
    description: fields.description == null ? '' : adfToText(fields.description),
  };
}
