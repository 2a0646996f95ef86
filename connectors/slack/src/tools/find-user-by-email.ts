import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { SlackClient } from '../slack-client.js';

/** The fields of a Slack user object the tool reads. */
interface SlackUser {
  id: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  tz?: string;
  profile?: { display_name?: string; real_name?: string; title?: string };
}

/** `slack_find_user_by_email`: finds a workspace member by email, e.g. to mention them. */
export function createSlackFindUserByEmail(client: SlackClient) {
  return defineTool({
    name: 'slack_find_user_by_email',
    description:
      'Finds a member of the Slack workspace by email address and returns their user ID (for <@ID> mentions), names, title and time zone.',
    input: z.object({
      email: z
        .email()
        .describe('Email address the person uses in Slack')
        .meta({ question: 'What is the email address of the person in Slack?' }),
    }),
    effect: 'read',
    requiredScopes: ['users:read', 'users:read.email'],
    async execute(input, context) {
      const result = await client.call<{ user: SlackUser }>(context.credentials, 'users.lookupByEmail', {
        httpMethod: 'GET',
        arguments: { email: input.email },
        signal: context.signal,
      });
      if (!result.ok) return result.envelope;
      const user = result.data.user;
      return success({
        id: user.id,
        name: user.name ?? null,
        real_name: user.real_name ?? user.profile?.real_name ?? null,
        display_name: user.profile?.display_name || null,
        title: user.profile?.title || null,
        tz: user.tz ?? null,
        is_bot: user.is_bot ?? false,
        deleted: user.deleted ?? false,
      });
    },
  });
}
