import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';

/** `__ID___create_item`: creates an item. TODO(connector author): replace with a real write tool. */
export function create__Name__CreateItem(client: HttpClient) {
  return defineTool({
    name: '__ID___create_item',
    description: 'Creates a __NAME__ item with a title and an optional body.',
    input: z.object({
      title: z
        .string()
        .min(1)
        .describe('Title of the new item')
        .meta({ question: 'What should the item be called?' }),
      body: z.string().optional().describe('Longer description of the item, in Markdown'),
    }),
    effect: 'write',
    requiredScopes: ['items:write'],
    async execute(input, context) {
      const { data } = await client.request<{ id: string; url: string }>(context.credentials, {
        method: 'POST',
        path: '/items',
        json: { title: input.title, body: input.body },
        requiredScopes: ['items:write'],
        signal: context.signal,
      });
      return success({ id: data.id, url: data.url });
    },
  });
}
