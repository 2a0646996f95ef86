import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { success } from '@patchbay/envelope';
import { type Agent, type AgentTool, createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { describe, expect, it } from 'vitest';
import { modelToolNamePattern } from './model-tool-names.js';
import { runTurn } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';
import { createTurnSession } from './turn-session.js';

// Names real MCP servers use that model APIs refuse (issue 33): one of them in a request fails the
// whole request at OpenAI and Anthropic.
const hostileNames = ['get.weather', 'ns/tool', 'a:b', 'café', 'read file', `lab_${'x'.repeat(70)}`];

/** An MCP-like agent (trusted, up) serving read tools under the given names; counts what ran. */
function labAgent(ran: string[]): Agent {
  const tools: AgentTool[] = hostileNames.map((name) => ({
    name,
    description: `Answers for ${name} in the lab.`,
    inputJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
    effect: 'read',
    requiredScopes: [],
    requires: [],
    annotations: { readOnlyHint: true },
  }));
  return {
    id: 'lab',
    trusted: true,
    initialize: async () => {},
    shutdown: async () => {},
    health: async () => ({ status: 'up' }),
    observedHealth: () => ({ status: 'up' }),
    manifest: () => ({ id: 'lab', kind: 'mcp', tools }),
    execute: async (toolName) => {
      ran.push(toolName);
      return success({ answered: toolName });
    },
  };
}

async function setup() {
  const ran: string[] = [];
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource, connectors: [] });
  orchestrator.register(labAgent(ran));
  await orchestrator.start();
  return { ran, statusSource, orchestrator };
}

const toolsOf = (call: LanguageModelV4CallOptions) => (call.tools ?? []).map((tool) => tool.name);

describe('tool names every model API accepts', () => {
  it('offers every tool under a name in ^[a-zA-Z0-9_-]{1,64}$ and runs the real tool when the model calls it', async () => {
    const { ran, statusSource, orchestrator } = await setup();
    let shownWeather = '';
    const model = createScriptedModel([
      (call) => {
        const names = toolsOf(call);
        for (const name of names) expect(name).toMatch(modelToolNamePattern);
        shownWeather = names.find((name) => name.startsWith('get_weather'))!;
        return { toolCalls: [{ toolName: shownWeather, input: { city: 'Oslo' } }] };
      },
      'It is sunny.',
    ]);
    const result = await runTurn({
      model,
      thread: { id: 't', messages: [] },
      message: 'Weather in Oslo?',
      subject: 'ana',
      orchestrator,
      connectors: [],
      statusSource,
    });
    expect(ran).toEqual(['get.weather']);
    expect(result.trace.calls[0]).toMatchObject({
      toolName: 'get.weather',
      modelToolName: shownWeather,
      sent: true,
    });
    // The stored thread keeps the model's name on the call and its result (providers match them by name).
    const stored = JSON.stringify(result.thread.messages);
    expect(stored).toContain(`"toolName":"${shownWeather}"`);
    expect(stored).not.toContain('"toolName":"get.weather"');
    // The trace's offer lists the real names.
    expect(result.trace.exposedTools).toEqual(expect.arrayContaining(hostileNames));
  });

  it('does not run a tool called by a real name the model was never shown', async () => {
    const { ran, statusSource, orchestrator } = await setup();
    const model = createScriptedModel([{ toolCalls: [{ toolName: 'get.weather', input: {} }] }, 'Done.']);
    const result = await runTurn({
      model,
      thread: { id: 't', messages: [] },
      message: 'Weather?',
      subject: 'ana',
      orchestrator,
      connectors: [],
      statusSource,
    });
    expect(ran).toEqual([]);
    expect(result.trace.calls[0]).toMatchObject({ skipped: 'not_offered', sent: false });
  });

  it('gives a framework the same names through a session, and maps its calls back', async () => {
    const { ran, statusSource, orchestrator } = await setup();
    const session = createTurnSession({ subject: 'ana', orchestrator, connectors: [], statusSource });
    const registered = await session.allTools();
    for (const tool of registered) expect(tool.name).toMatch(modelToolNamePattern);
    const plan = await session.prepareStep();
    for (const name of plan.activeTools) expect(name).toMatch(modelToolNamePattern);
    expect(new Set(plan.activeTools).size).toBe(plan.activeTools.length);
    const shown = plan.activeTools.find((name) => name.startsWith('ns_tool'))!;
    expect(registered.map((tool) => tool.name)).toContain(shown);
    const result = await session.call(shown, {});
    expect(result.envelope).toMatchObject({ ok: true, data: { answered: 'ns/tool' } });
    expect(ran).toEqual(['ns/tool']);
  });
});
