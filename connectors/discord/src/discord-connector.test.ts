import { describeConnectorConformance } from '@patchbay/testing';
import { createDiscord } from './discord-connector.js';
import { discordFailures, ids } from './fixtures/discord-responses.js';

describeConnectorConformance(createDiscord(), {
  credentials: { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.0000000000000000000000000000000000000' },
  samples: {
    discord_list_servers: {},
    discord_list_channels: { server_id: ids.guild },
    discord_read_messages: { channel_id: ids.general },
    discord_send_message: { channel_id: ids.general, content: 'Deploy finished' },
    discord_delete_message: { channel_id: ids.general, message_id: ids.message },
  },
  failures: discordFailures,
});
