import { describeConnectorConformance } from '@patchbay/testing';
import { slackFailures } from './fixtures/slack-responses.js';
import { createSlack } from './slack-connector.js';

describeConnectorConformance(createSlack(), {
  credentials: { token: 'xoxb-0000000000-0000000000000-000000000000000000000000' },
  samples: {
    slack_list_channels: {},
    slack_get_channel_history: { channel: 'C012AB3CD' },
    slack_find_user_by_email: { email: 'spengler@ghostbusters.example.com' },
    slack_post_message: { channel: 'C012AB3CD', text: 'Deploy finished' },
    slack_delete_message: { channel: 'C012AB3CD', ts: '1503435956.000247' },
  },
  // Slack's own failure shapes: errors arrive as HTTP 200 with `{ ok: false, error }`.
  failures: slackFailures,
});
