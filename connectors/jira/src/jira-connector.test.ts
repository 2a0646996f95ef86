import { describeConnectorConformance } from '@patchbay/testing';
import { jiraFailures } from './fixtures/jira-responses.js';
import { createJira } from './jira-connector.js';

describeConnectorConformance(createJira({ baseUrl: 'https://acme.atlassian.net' }), {
  credentials: { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0000000000000000' },
  samples: {
    jira_get_issue: { issue_key: 'PROJ-7' },
    jira_search_issues: { jql: 'project = PROJ ORDER BY updated DESC' },
    jira_create_issue: { project_key: 'PROJ', summary: 'Login page times out' },
    jira_add_comment: { issue_key: 'PROJ-7', body: 'Reproduced on Chrome.' },
    jira_transition_issue: { issue_key: 'PROJ-7', status: 'Done' },
  },
  failures: jiraFailures,
});
