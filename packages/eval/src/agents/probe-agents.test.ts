import type { Agent } from '@patchbay/orchestrator';
import { describe, expect, it } from 'vitest';
import type { ToolRun } from '../config.js';
import { probeAgent, probeTools, registerProbes } from './probe-agents.js';

const spec = {
  trusted: false,
  requires_approval: true,
  tools: {
    probe_write: { effect: 'write' as const, read_only_hint: true, connector: 'github', trusted: true },
    probe_delete: { effect: 'destructive' as const },
  },
};

describe('the test agents of `gate.agents`', () => {
  it('serves tools with exactly the effect, hints, trust and connector given', () => {
    const [write, remove] = probeTools(spec);
    expect(write).toMatchObject({
      name: 'probe_write',
      effect: 'write',
      connectorId: 'github',
      trusted: true,
      annotations: { readOnlyHint: true },
    });
    expect(remove?.annotations).toBeUndefined();
    expect(remove).not.toHaveProperty('connectorId');
  });

  it('redefines one tool: its description, or an added idempotent hint', () => {
    const [write] = probeTools(spec, { tool: 'probe_write', description: 'New.', idempotent_hint: true });
    expect(write).toMatchObject({
      description: 'New.',
      annotations: { readOnlyHint: true, idempotentHint: true },
    });
  });

  it('declares its trust and the manifest’s requiresApproval, and records each run', async () => {
    const runs: ToolRun[] = [];
    const agent = probeAgent('probe', spec, { push: (...more) => runs.push(...more) });
    expect(agent.trusted).toBe(false);
    expect(agent.manifest().requiresApproval).toBe(true);
    const envelope = await agent.execute('probe_delete', { target: 'alpha' }, {} as never);
    expect(envelope).toEqual({ ok: true, data: { ran: 'probe_delete' } });
    expect(runs).toEqual([{ tool: 'probe_delete', input: { target: 'alpha' } }]);
  });

  it('replaces an agent by a redefined one, under its id or another', async () => {
    const registered: Agent[] = [];
    const removed: string[] = [];
    const registry = {
      register: (agent: Agent) => registered.push(agent),
      unregister: async (id: string) => {
        removed.push(id);
      },
    };
    const redefine = registerProbes(registry, { probe: spec }, { push: () => 0 });
    await redefine?.('probe', { tool: 'probe_delete', as: 'probe-v2' });
    await redefine?.('probe-v2', { tool: 'probe_delete', description: 'Again.' });
    expect(registered.map((agent) => agent.id)).toEqual(['probe', 'probe-v2', 'probe-v2']);
    expect(removed).toEqual(['probe', 'probe-v2']);
    expect(registerProbes(registry, undefined, { push: () => 0 })).toBeUndefined();
  });
});
