import { maxArgumentDepth } from '@patchbay/helpers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCountingAgent, createTestStatusSource } from '../test/support.js';
import { createOrchestrator } from './orchestrator.js';

const subject = 'user-1';

/** `{ payload: [[[…]]] }` with the outermost object as level 1, built without recursion. */
function deepArguments(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 2; level <= depth; level += 1) value = level % 2 === 0 ? [value] : { next: value };
  return { payload: value };
}

async function setup() {
  const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
  const payloadSchema = {
    type: 'object',
    properties: { payload: { description: 'Anything to store' } },
    required: ['payload'],
  };
  const agent = createCountingAgent({
    tools: [
      { name: 'store_read', inputJsonSchema: payloadSchema },
      // Destructive: the gate hashes the arguments for its proposal, which used to recurse.
      { name: 'store_wipe', effect: 'destructive', inputJsonSchema: payloadSchema },
    ],
  });
  orchestrator.register(agent);
  await orchestrator.start();
  return { orchestrator, agent };
}

describe('argument depth limit', () => {
  it(`answers arguments nested deeper than ${maxArgumentDepth} levels with invalid_arguments, never running them`, async () => {
    const { orchestrator, agent } = await setup();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: maxArgumentDepth + 1, max: 10_000 }),
        fc.constantFrom('store_read', 'store_wipe'),
        async (depth, tool) => {
          const result = await orchestrator.execute(tool, deepArguments(depth), { subject });
          expect(result).toMatchObject({
            ok: false,
            error_type: 'invalid_arguments',
            issues: [
              { path: '(input)', message: expect.stringContaining(`more than ${maxArgumentDepth} levels`) },
            ],
          });
        },
      ),
      { numRuns: 40 },
    );
    for (const depth of [2_000, 10_000, 100_000]) {
      expect(await orchestrator.execute('store_wipe', deepArguments(depth), { subject })).toMatchObject({
        error_type: 'invalid_arguments',
      });
    }
    expect(agent.calls).toHaveLength(0);
    expect(await orchestrator.listProposals()).toEqual([]);
  });

  it('passes arguments up to the limit on to validation and the approval gate', async () => {
    const { orchestrator, agent } = await setup();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: maxArgumentDepth }), async (depth) => {
        expect(await orchestrator.execute('store_read', deepArguments(depth), { subject })).toMatchObject({
          ok: true,
        });
      }),
      { numRuns: 30 },
    );
    expect(
      await orchestrator.execute('store_wipe', deepArguments(maxArgumentDepth), { subject }),
    ).toMatchObject({ error_type: 'approval_required' });
    expect(agent.calls.length).toBeGreaterThan(0);
  });

  it('takes wide arguments (100,000 keys) through validation and approval', async () => {
    const { orchestrator, agent } = await setup();
    const payload = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, index]));
    const proposed = await orchestrator.execute('store_wipe', { payload }, { subject });
    expect(proposed).toMatchObject({ ok: false, error_type: 'approval_required' });
    const id = (proposed as { proposal_id: string }).proposal_id;
    expect(await orchestrator.approveAndExecute(id)).toMatchObject({ ok: true });
    expect(agent.calls).toHaveLength(1);
    expect(Object.keys((agent.calls[0]!.args as { payload: object }).payload)).toHaveLength(100_000);
  });
});
