import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { discord } from '../discord-connector.js';
import { discordError, discordFailures, discordHeaders, ids } from '../fixtures/discord-responses.js';

const server = createTestServer({
  'DELETE https://discord.com/api/v10/channels/:channelId/messages/:messageId': () =>
    new Response(null, { status: 204, headers: discordHeaders() }),
});
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };
const deleteMessage = discord.tools.find((tool) => tool.name === 'discord_delete_message')!;
const call = (input: unknown) =>
  callToolAsSubject(deleteMessage, input, {
    snapshot: snapshotFor(discord, 'connected'),
    credentials,
    setupUrl: discord.setupUrl,
  });

describe('discord_delete_message', () => {
  it('is destructive', () => {
    expect(deleteMessage.effect).toBe('destructive');
  });

  it('deletes with DELETE /channels/{id}/messages/{id} and puts the reason in the audit log header', async () => {
    const envelope = await call({
      channel_id: ids.general,
      message_id: ids.message,
      reason: 'Posted by mistake',
    });
    expect(server.calls).toHaveLength(1);
    const [request] = server.calls;
    expect(request).toMatchObject({
      method: 'DELETE',
      url: `https://discord.com/api/v10/channels/${ids.general}/messages/${ids.message}`,
    });
    expect(request!.headers.authorization).toBe(`Bot ${credentials.token}`);
    expect(request!.headers['x-audit-log-reason']).toBe('Posted%20by%20mistake');
    expect(request!.body).toBeUndefined();
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'discord_delete_message' },
      data: { deleted: true, channel_id: ids.general, message_id: ids.message },
    });
  });

  it('asks which message when the id is missing, without a request', async () => {
    expect(await call({ channel_id: ids.general })).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'message_id', question: 'Which message should I delete?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it("names MANAGE_MESSAGES when deleting someone else's message is refused", async () => {
    server.use({
      'DELETE https://discord.com/api/v10/channels/:channelId/messages/:messageId': discordFailures.forbidden,
    });
    expect(await call({ channel_id: ids.general, message_id: ids.message })).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['MANAGE_MESSAGES'],
    });
  });

  it('maps Unknown Message (10008) to not_found', async () => {
    server.use({
      'DELETE https://discord.com/api/v10/channels/:channelId/messages/:messageId': {
        status: 404,
        headers: discordHeaders(),
        body: discordError(10008, 'Unknown Message'),
      },
    });
    const envelope = await call({ channel_id: ids.general, message_id: ids.message });
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found' });
    expect((envelope as { user_message: string }).user_message).toContain('Unknown Message');
  });
});
