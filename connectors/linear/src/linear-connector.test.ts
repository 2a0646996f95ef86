import { describeConnectorConformance } from '@patchbay/testing';
import { linearFailures } from './fixtures/linear-responses.js';
import { createLinear } from './linear-connector.js';

describeConnectorConformance(createLinear(), {
  credentials: { api_key: 'lin_api_0000000000000000000000000000' },
  samples: {
    linear_search_issues: { query: 'login timeout' },
    linear_get_issue: { issue_id: 'ENG-123' },
    linear_list_teams: {},
    linear_create_issue: { team: '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f', title: 'Login page times out' },
    linear_comment_on_issue: { issue_id: '8e6f5a0e-1b2c-4d3e-9f40-5a6b7c8d9e0f', body: 'Reproduced.' },
    linear_update_issue_state: { issue_id: 'ENG-123', state: 'Done' },
  },
  failures: linearFailures(),
});
