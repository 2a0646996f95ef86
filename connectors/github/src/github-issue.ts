/** The fields of a GitHub issue object (REST `issue` schema) the tools read. */
export interface GithubIssue {
  number: number;
  title: string;
  state: 'open' | 'closed';
  state_reason?: string | null;
  body?: string | null;
  html_url: string;
  user?: { login: string } | null;
  labels?: (string | { name?: string })[];
  assignees?: { login: string }[] | null;
  comments?: number;
  pull_request?: unknown;
  created_at: string;
  updated_at: string;
  closed_at?: string | null;
}

/** What a model sees of an issue: small, snake_case, no API URLs it cannot use. */
export interface IssueSummary {
  number: number;
  title: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  url: string;
  author: string | null;
  labels: string[];
  assignees: string[];
  comments: number;
  is_pull_request: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  body?: string;
  body_truncated?: boolean;
}

// Long bodies (logs pasted into issues) would crowd out the rest of the model's context.
const maxBodyLength = 8_000;

/** Reduces a GitHub issue to an {@link IssueSummary}; `withBody` keeps the (shortened) Markdown body. */
export function summarizeIssue(issue: GithubIssue, options: { withBody?: boolean } = {}): IssueSummary {
  const summary: IssueSummary = {
    number: issue.number,
    title: issue.title,
    state: issue.state,
    state_reason: issue.state_reason ?? null,
    url: issue.html_url,
    author: issue.user?.login ?? null,
    labels: (issue.labels ?? [])
      .map((label) => (typeof label === 'string' ? label : label.name))
      .filter((name): name is string => typeof name === 'string'),
    assignees: (issue.assignees ?? []).map((assignee) => assignee.login),
    comments: issue.comments ?? 0,
    // The issues API returns pull requests too; this key is how GitHub marks them.
    is_pull_request: issue.pull_request !== undefined && issue.pull_request !== null,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at ?? null,
  };
  if (options.withBody) {
    const body = issue.body ?? '';
    summary.body = body.length > maxBodyLength ? `${body.slice(0, maxBodyLength)}…` : body;
    if (body.length > maxBodyLength) summary.body_truncated = true;
  }
  return summary;
}
