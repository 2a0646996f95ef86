import { type Connector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource, type InMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { z } from 'zod';

/** The user every request of this example acts for; a real app takes it from its own sign-in. */
export const demoSubject = 'demo-user';

/** Everything a turn needs besides the model: connectors, where their status lives, and the gate. */
export interface DemoWorkspace {
  subject: string;
  connectors: readonly Connector[];
  statusSource: InMemoryStatusSource;
  orchestrator: Orchestrator;
  /** Issue keys `tracker_delete_issue` really deleted, in order: proof of what ran, not what was asked. */
  readonly deleted: readonly string[];
  /** Issues still in the tracker. */
  readonly issues: readonly string[];
}

/**
 * Two stand-in connectors in memory: a connected issue tracker (one read tool, one destructive tool
 * the gate holds for approval) and a chat connector that is not set up, so the status panel shows
 * both "connected" and "could be set up". Swap these for real connector packages in your app.
 */
export async function createDemoWorkspace(): Promise<DemoWorkspace> {
  const issues = ['WEB-1', 'WEB-2', 'WEB-3'];
  const deleted: string[] = [];
  const tracker = createFixtureConnector({
    id: 'tracker',
    name: 'Tracker',
    description: 'An issue tracker kept in memory.',
    wouldEnable: ['List and delete issues from chat'],
    tools: [
      defineTool({
        name: 'tracker_list_issues',
        description: 'Lists the open issues.',
        input: z.object({}),
        effect: 'read',
        execute: async () => success({ issues: [...issues] }),
      }),
      defineTool({
        name: 'tracker_delete_issue',
        description: 'Deletes an issue for good.',
        input: z.object({ key: z.string().describe('Issue key, e.g. WEB-1') }),
        effect: 'destructive',
        execute: async (input) => {
          deleted.push(input.key);
          const index = issues.indexOf(input.key);
          if (index >= 0) issues.splice(index, 1);
          return success({ deleted: input.key });
        },
      }),
    ],
  });
  const chat = createFixtureConnector({
    id: 'chat',
    name: 'Team chat',
    description: 'A team chat kept in memory.',
    wouldEnable: ['Post updates to a channel'],
    tools: [{ name: 'chat_post_message', description: 'Posts a message to a channel.', effect: 'write' }],
  });
  const connectors = [tracker, chat];
  const statusSource = createInMemoryStatusSource();
  statusSource.connect(demoSubject, 'tracker', { credentials: { token: 'demo-tracker-token' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  return {
    subject: demoSubject,
    connectors,
    statusSource,
    orchestrator,
    get deleted() {
      return deleted;
    },
    get issues() {
      return issues;
    },
  };
}
