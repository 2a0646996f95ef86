import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import { textToAdf } from '../jira-adf.js';
import type { JiraClient } from '../jira-client.js';
import { writeWork } from '../jira-scopes.js';

/** The body of a 201 from `POST /rest/api/3/issue`. */
interface CreatedIssue {
  id: string;
  key: string;
  self: string;
}

/** `jira_create_issue`: a new issue in a project, with an optional plain-text description. */
export function createJiraCreateIssue(client: JiraClient) {
  return defineTool({
    name: 'jira_create_issue',
    description:
      'Creates a Jira issue in a project (by project key) with a summary, an issue type such as Task, Bug or Story, and an optional plain-text description and labels. Returns the new issue key.',
    input: z.object({
      project_key: z
        .string()
        .trim()
        .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be a project key such as PROJ')
        .describe('Key of the project to create the issue in, e.g. PROJ')
        .meta({ question: 'Which Jira project should the issue go in?' }),
      summary: z
        .string()
        .trim()
        .min(1)
        .max(255)
        .describe('One-line summary (title) of the issue')
        .meta({ question: 'What should the Jira issue be called?' }),
      issue_type: z
        .string()
        .trim()
        .min(1)
        .default('Task')
        .describe('Issue type name as the project names it, e.g. Task, Bug, Story (default Task)'),
      description: z.string().optional().describe('Plain-text description; blank lines separate paragraphs'),
      labels: z
        .array(z.string().trim().min(1).regex(/^\S+$/, 'labels cannot contain spaces').describe('One label'))
        .optional()
        .describe('Labels to put on the issue (no spaces inside a label)'),
    }),
    effect: 'write',
    requiredScopes: [writeWork],
    async execute(input, context) {
      const { data } = await client.request<CreatedIssue>(context.credentials, {
        method: 'POST',
        path: '/rest/api/3/issue',
        json: {
          fields: {
            project: { key: input.project_key.toUpperCase() },
            issuetype: { name: input.issue_type },
            summary: input.summary,
            ...(input.description?.trim() ? { description: textToAdf(input.description) } : {}),
            ...(input.labels?.length ? { labels: input.labels } : {}),
          },
        },
        requiredScopes: [writeWork],
        signal: context.signal,
      });
      const url = client.browseUrl(data.key);
      return success({ key: data.key, id: data.id, ...(url ? { url } : {}) });
    },
  });
}
