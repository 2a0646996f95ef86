import { type Connector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import { createFixtureConnector } from './fixture-connector.js';

/** What a read tool of the benchmarks' tracker answers. */
export interface BenchIssue {
  key: string;
  title: string;
  status: string;
}

const issues: Record<string, { title: string; status: string }> = {
  'WEB-12': { title: 'Login page rejects valid passwords', status: 'open' },
};

/** The one function both paths of an adapter benchmark run: what the tracker's read tool does. */
export async function benchGetIssue(input: { key: string }): Promise<BenchIssue> {
  const issue = issues[input.key];
  return { key: input.key, title: issue?.title ?? 'unknown', status: issue?.status ?? 'unknown' };
}

/** The read tool of the adapter benchmarks: its name, description and the JSON Schema a model is shown. */
export const benchReadTool: {
  name: 'tracker_get_issue';
  description: string;
  inputJsonSchema: {
    type: 'object';
    properties: { key: { type: 'string'; description: string } };
    required: string[];
  };
} = {
  name: 'tracker_get_issue',
  description: 'Reads an issue of the tracker by its key.',
  /** What Patchbay offers the model for the tool; a plain path declares the same (each bench checks it). */
  inputJsonSchema: {
    type: 'object' as const,
    properties: { key: { type: 'string' as const, description: 'Issue key, e.g. WEB-12' } },
    required: ['key'],
  },
};

/** The reply the benchmarks' scripted model gives once it has read the tool's result. */
export const benchReply = 'WEB-12 is open: the login page rejects valid passwords.';

/** The tracker connector of the adapter benchmarks: one read tool running {@link benchGetIssue}. */
export function createBenchTracker(): Connector {
  return createFixtureConnector({
    id: 'tracker',
    tools: [
      defineTool({
        name: benchReadTool.name,
        description: benchReadTool.description,
        input: z.object({ key: z.string().describe('Issue key, e.g. WEB-12') }),
        effect: 'read',
        execute: async (args) => success(await benchGetIssue(args)),
      }),
    ],
  });
}

/**
 * The scripted model's script of one benchmark turn: call the read tool on the first model call,
 * reply {@link benchReply} once the prompt holds a tool result.
 */
export function benchTurnScript(call: { prompt: readonly { role: string }[] }) {
  return call.prompt.some((message) => message.role === 'tool')
    ? benchReply
    : { toolCalls: [{ toolName: benchReadTool.name, input: { key: 'WEB-12' } }] };
}
