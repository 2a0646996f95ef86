import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { z } from 'zod';

/** Every call a connector's code ran, in order: what the tests count. */
export const executed: { tool: string; input: unknown }[] = [];

const tracker = createFixtureConnector({
  id: 'tracker',
  tools: [
    defineTool({
      name: 'tracker_create_issue',
      description: 'Creates an issue in a project.',
      input: z.object({
        project: z
          .string()
          .describe('Project key')
          .meta({ question: 'Which project should the issue go in?' }),
        title: z.string().min(3).describe('Issue title'),
      }),
      effect: 'write',
      execute: async (input) => {
        executed.push({ tool: 'tracker_create_issue', input });
        return success({ key: `${input.project}-1` });
      },
    }),
    defineTool({
      name: 'tracker_delete_issue',
      description: 'Deletes an issue.',
      input: z.object({ key: z.string().describe('Issue key') }),
      effect: 'destructive',
      execute: async (input) => {
        executed.push({ tool: 'tracker_delete_issue', input });
        return success({ deleted: input.key });
      },
    }),
  ],
});
const chat = createFixtureConnector({
  id: 'chat',
  tools: [
    defineTool({
      name: 'chat_post_message',
      description: 'Posts a message to a channel.',
      input: z.object({ channel: z.string().describe('Channel'), text: z.string().describe('Text') }),
      effect: 'write',
      execute: async (input) => {
        executed.push({ tool: 'chat_post_message', input });
        return success({ ts: '1' });
      },
    }),
  ],
});

/** The connectors of the tests: tracker (connected by default), chat (not configured). */
export const connectors = [tracker, chat];

/** A fresh world: ana has tracker connected, chat not; the gate over both connectors. */
export async function setupWorld() {
  executed.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  return { subject: 'ana', statusSource, orchestrator, connectors };
}
