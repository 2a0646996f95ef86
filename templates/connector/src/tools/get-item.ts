import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';

/** `__ID___get_item`: reads one item. TODO(connector author): replace with a real read tool. */
export function create__Name__GetItem(client: HttpClient) {
  return defineTool({
    name: '__ID___get_item',
    description: 'Gets one __NAME__ item by its id, with its title and state.',
    input: z.object({
      id: z
        .string()
        .min(1)
        .describe('Id of the item to get')
        .meta({ question: 'Which __NAME__ item do you mean?' }),
    }),
    effect: 'read',
    requiredScopes: ['items:read'],
    async execute(input, context) {
      const { data } = await client.request<{ id: string; title: string; state: string }>(
        context.credentials,
        {
          path: `/items/${encodeURIComponent(input.id)}`,
          requiredScopes: ['items:read'],
          signal: context.signal,
        },
      );
      return success({ id: data.id, title: data.title, state: data.state });
    },
  });
}
