import { z } from 'zod';

/** A channel ID input (`C…` public, `G…`/`C…` private, `D…` direct message), with the question to ask. */
export function channelIdField(question: string) {
  return z
    .string()
    .min(1)
    .describe('Slack channel ID such as C0123456789 (find it with slack_list_channels)')
    .meta({ question });
}

/** A message timestamp input: Slack's message id within a channel, e.g. 1503435956.000247. */
export function messageTsField(description: string, question?: string) {
  const field = z
    .string()
    .regex(/^\d+\.\d+$/, 'must be a Slack message timestamp such as 1503435956.000247')
    .describe(description);
  return question === undefined ? field : field.meta({ question });
}
