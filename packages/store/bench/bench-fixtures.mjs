// Shared by the store's hot-path and multi-process benchmarks: generated connectors whose one tool
// answers in process (a stand-in for a service, so the store's share of a turn is what is timed),
// the scripted model that calls one tool and then answers, and percentiles.
import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createScriptedModel } from '@patchbay/turn/testing';
import { z } from 'zod';

/** The tool input every generated tool takes. */
export const lookupInput = z.object({ query: z.string().describe('What to look up') });

/** What every generated tool answers: the stand-in for a service's reply. */
export const lookupAnswer = (query) => ({ query, items: [{ id: 'R-1', title: 'Release notes' }] });

/** `count` connectors svc0…, each with one read tool `svc<i>_lookup` answered in process. */
export function benchConnectors(count) {
  return Array.from({ length: count }, (_, index) => {
    const id = `svc${index}`;
    return defineConnector({
      id,
      name: `Service ${index}`,
      description: 'A generated connector for the benchmark.',
      auth: { kind: 'bearer' },
      capabilities: ['lookup'],
      wouldEnable: ['Nothing; it is a benchmark fixture'],
      setupUrl: `https://${id}.example/connect`,
      tools: [
        defineTool({
          name: `${id}_lookup`,
          description: 'Looks something up (benchmark stand-in, answers in process).',
          input: lookupInput,
          effect: 'read',
          execute: async (input) => success(lookupAnswer(input.query)),
        }),
      ],
      verify: async () => ({ valid: true, scopes: [] }),
    });
  });
}

/** Credentials of a generated connection: a token of realistic length. */
export const benchCredentials = (subject, index) => ({
  token: `bench-${subject}-${index}-${'x'.repeat(40)}`,
});

/**
 * The scripted model of every benchmark turn: the first step calls `toolName`, the step after the
 * tool result answers in text. A fresh one per turn (it records its calls).
 */
export function toolThenAnswerModel(toolName) {
  return createScriptedModel((call) =>
    call.prompt.at(-1)?.role === 'tool'
      ? 'The lookup found the release notes.'
      : { toolCalls: [{ toolName, input: { query: 'release notes' } }] },
  );
}

/** The `fraction` percentile of numbers (nearest rank). */
export function percentile(values, fraction) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/** Rounds to `digits` decimals. */
export const round = (value, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
