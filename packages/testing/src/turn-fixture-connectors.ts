import { type Connector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import { createFixtureConnector } from './fixture-connector.js';

/** One call a fixture connector's code really ran: what a test counts, not what a model asked for. */
export interface FixtureToolRun {
  tool: string;
  input: unknown;
}

/**
 * The two connectors the turn, session and provider-package tests share: `tracker` with a write
 * (`tracker_create_issue`, whose `project` only the user can give) and a destructive tool
 * (`tracker_delete_issue`, held for approval by the default policy), and `chat` with a write
 * (`chat_post_message`). Every run of a tool's code is pushed onto `ran`, so a test counts what
 * reached the service, whatever the model or the framework asked for.
 */
export function createTurnFixtureConnectors(ran: FixtureToolRun[]): Connector[] {
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
          ran.push({ tool: 'tracker_create_issue', input });
          return success({ key: `${input.project}-1` });
        },
      }),
      defineTool({
        name: 'tracker_delete_issue',
        description: 'Deletes an issue.',
        input: z.object({ key: z.string().describe('Issue key') }),
        effect: 'destructive',
        execute: async (input) => {
          ran.push({ tool: 'tracker_delete_issue', input });
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
          ran.push({ tool: 'chat_post_message', input });
          return success({ ts: '1' });
        },
      }),
    ],
  });
  return [tracker, chat];
}
