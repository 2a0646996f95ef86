import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCountingAgent, createTestStatusSource } from '../test/support.js';
import type { AgentTool } from './agent.js';
import { fromFunction } from './function-agent.js';
import { createOrchestrator } from './orchestrator.js';

// Tool names are unique by construction: a registration that collides throws, and names discovered
// later (MCP servers list theirs on connect) are routed by a fixed rule, never by who connected first.

const subject = 'ana';

function toolNamed(name: string, agent: string): AgentTool {
  return {
    name,
    description: `${name} of ${agent}`,
    inputJsonSchema: { type: 'object', properties: {} },
    effect: 'read',
    requiredScopes: [],
    requires: [],
    annotations: { readOnlyHint: true },
  };
}

/** Two agents that, like MCP servers, register without tools and discover them when they connect. */
async function twoServers() {
  const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
  const first = createCountingAgent({ id: 'first', tools: [], trusted: true });
  const second = createCountingAgent({ id: 'second', tools: [], trusted: true });
  orchestrator.register(first);
  orchestrator.register(second);
  await orchestrator.start();
  return { orchestrator, first, second };
}

describe('tool names are unique by construction', () => {
  it('serves a name two discovered agents declare from neither, whichever connected first, and names both', async () => {
    for (const order of [
      ['first', 'second'],
      ['second', 'first'],
    ] as const) {
      const servers = await twoServers();
      for (const id of order) servers[id].setTools([toolNamed('echo', id)]);
      const { orchestrator, first, second } = servers;
      expect(orchestrator.getTool('echo')).toBeUndefined();
      expect(orchestrator.ownerOf('echo')).toBeUndefined();
      expect(orchestrator.toolConflicts()).toEqual([
        { name: 'echo', owners: [...order], servedBy: undefined },
      ]);
      for (let call = 0; call < 6; call += 1) {
        expect(await orchestrator.execute('echo', {}, { subject })).toMatchObject({
          ok: false,
          error_type: 'tool_unavailable',
        });
      }
      // Neither server received any of the six calls: none was routed to a server it may not mean.
      expect(first.calls.length + second.calls.length).toBe(0);
    }
  });

  it('routes the name again once one declarer drops it (a prefix renamed its tools)', async () => {
    const { orchestrator, first, second } = await twoServers();
    first.setTools([toolNamed('echo', 'first')]);
    second.setTools([toolNamed('echo', 'second')]);
    second.setTools([toolNamed('second_echo', 'second')]);
    expect(orchestrator.toolConflicts()).toEqual([]);
    expect(orchestrator.ownerOf('echo')).toBe('first');
    expect(orchestrator.ownerOf('second_echo')).toBe('second');
    expect(await orchestrator.execute('echo', {}, { subject })).toMatchObject({ ok: true });
    expect(first.calls).toHaveLength(1);
    expect(second.calls).toHaveLength(0);
  });

  it('keeps a name with the agent that declared it at registration; a later discovery does not take it', async () => {
    const { orchestrator, first } = await twoServers();
    orchestrator.register(
      fromFunction({
        name: 'lookup',
        description: 'Looks something up.',
        input: z.object({}),
        effect: 'read',
        execute: () => 'from the function',
      }),
    );
    first.setTools([toolNamed('lookup', 'first')]);
    expect(orchestrator.ownerOf('lookup')).toBe('function:lookup');
    expect(orchestrator.toolConflicts()).toEqual([
      { name: 'lookup', owners: ['function:lookup', 'first'], servedBy: 'function:lookup' },
    ]);
    await orchestrator.startAgent('function:lookup');
    expect(await orchestrator.execute('lookup', {}, { subject })).toMatchObject({
      ok: true,
      data: 'from the function',
    });
    expect(first.calls).toHaveLength(0);
  });

  it('refuses to register an agent declaring a name a discovered agent already declares, naming both', async () => {
    const { orchestrator, first } = await twoServers();
    first.setTools([toolNamed('lookup', 'first')]);
    expect(() =>
      orchestrator.register(
        fromFunction({
          name: 'lookup',
          description: 'Looks something up.',
          input: z.object({}),
          effect: 'read',
          execute: () => 'x',
        }),
      ),
    ).toThrow(/"first".*"function:lookup"/);
  });

  it('gives a name back to the remaining declarer when the other agent is unregistered', async () => {
    const { orchestrator, first, second } = await twoServers();
    first.setTools([toolNamed('echo', 'first')]);
    second.setTools([toolNamed('echo', 'second')]);
    await orchestrator.unregister('first');
    expect(orchestrator.ownerOf('echo')).toBe('second');
    expect(await orchestrator.execute('echo', {}, { subject })).toMatchObject({ ok: true });
    expect(second.calls).toHaveLength(1);
  });
});
