import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import {
  type Agent,
  type AgentHealth,
  type AgentTool,
  createOrchestrator,
  fromFunction,
} from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runTurn } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';

// The turn over every kind of agent. The stand-in MCP agent here has the MCP agent's observable
// surface (kind `mcp`, `observedHealth()`); the turn over a real MCP SDK server is in
// tests/src/turn-mcp.e2e.test.ts.

const now = () => new Date('2026-11-21T15:00:00Z');
const subject = 'ana';

const tracker = createFixtureConnector({
  id: 'tracker',
  tools: [
    defineTool({
      name: 'tracker_list_issues',
      description: 'Lists the open issues of a project.',
      input: z.object({ project: z.string().describe('Project key') }),
      effect: 'read',
      execute: async (input) => success([{ key: `${input.project}-7` }]),
    }),
  ],
});

/** An agent shaped like an MCP server's: tools routed once up, health observed without probing. */
function serverAgent(id: string, toolNames: string[]) {
  const calls: { tool: string; args: unknown }[] = [];
  let health: AgentHealth = { status: 'up' };
  const tools: AgentTool[] = toolNames.map((name) => ({
    name,
    description: `The ${name} tool of ${id}.`,
    inputJsonSchema: { type: 'object', properties: { path: { type: 'string' } } },
    effect: 'read',
    requiredScopes: [],
    requires: [],
    annotations: { readOnlyHint: true },
  }));
  const agent: Agent = {
    id,
    trusted: false,
    async initialize() {},
    async shutdown() {},
    async health() {
      return health;
    },
    observedHealth: () => health,
    manifest: () => ({ id, kind: 'mcp', tools }),
    async execute(tool, args) {
      calls.push({ tool, args });
      return success({ tool });
    },
  };
  return {
    agent,
    calls,
    setHealth(next: AgentHealth) {
      health = next;
    },
  };
}

async function setup() {
  const statusSource = createInMemoryStatusSource();
  statusSource.connect(subject, 'tracker', { credentials: { token: 'tracker-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors: [tracker] });
  const weatherCalls: unknown[] = [];
  orchestrator.register(
    fromFunction({
      name: 'weather_today',
      description: 'Today’s weather in a city.',
      input: z.object({ city: z.string().describe('City name') }),
      effect: 'read',
      examples: ['Is it sunny in Lyon?'],
      category: 'weather',
      execute: (input) => {
        weatherCalls.push(input);
        return { city: input.city, sky: 'clear' };
      },
    }),
  );
  const files = serverAgent('files', ['files_read']);
  const notes = serverAgent('notes', ['notes_search']);
  orchestrator.register(files.agent);
  orchestrator.register(notes.agent);
  await orchestrator.start();
  return { statusSource, orchestrator, files, notes, weatherCalls };
}

const contextOf = (model: ReturnType<typeof createScriptedModel>, index = 0) =>
  JSON.stringify(model.calls[index]!.prompt);

describe('runTurn over connectors, functions and MCP servers', () => {
  it('offers connector, function and MCP tools in one sorted list and runs each through the gate', async () => {
    const { statusSource, orchestrator, files, weatherCalls } = await setup();
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'tracker_list_issues', input: { project: 'WEB' } },
          { toolName: 'weather_today', input: { city: 'Lyon' } },
          { toolName: 'files_read', input: { path: 'a.txt' } },
        ],
      },
      'Done.',
    ]);
    const result = await runTurn({
      model,
      thread: 't1',
      message: 'Check WEB, the weather in Lyon and a.txt',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource,
      now,
    });
    const offered = [
      'files_read',
      'notes_search',
      'tracker_list_issues',
      'weather_today',
      'refresh_connector_status',
    ];
    expect(model.calls[0]!.tools?.map((tool) => tool.name)).toEqual(offered);
    expect(result.trace.exposedTools).toEqual(offered);
    // Seed 003's structured description: the function's category and examples reach the model.
    const weather = model.calls[0]!.tools?.find((tool) => tool.name === 'weather_today');
    expect(weather).toMatchObject({
      description: 'Today’s weather in a city.\nCategory: weather\nExamples:\n- Is it sunny in Lyon?',
    });
    expect(result.trace.calls.map((call) => [call.toolName, call.envelope.ok, call.owner])).toEqual([
      ['tracker_list_issues', true, 'connector:tracker'],
      ['weather_today', true, 'function:weather_today'],
      ['files_read', true, 'files'],
    ]);
    expect(weatherCalls).toEqual([{ city: 'Lyon' }]);
    expect(files.calls).toEqual([{ tool: 'files_read', args: { path: 'a.txt' } }]);
    // Servers are entries of the one status object, sorted with the connectors; functions are not.
    expect(result.trace.connectorStatus).toEqual({
      files: { status: 'connected', tools: ['files_read'] },
      notes: { status: 'connected', tools: ['notes_search'] },
      tracker: { status: 'connected', scopes: [], tools: ['tracker_list_issues'] },
    });
    expect(contextOf(model)).toContain(
      '{\\"files\\":{\\"status\\":\\"connected\\",\\"tools\\":[\\"files_read\\"]},\\"notes\\":',
    );
  });

  it('shows a down server as unavailable with retry_after, offers none of its tools and sends it nothing', async () => {
    const { statusSource, orchestrator, files } = await setup();
    files.setHealth({ status: 'down', detail: 'closed', retryAt: '2026-11-21T15:00:04.200Z' });
    const model = createScriptedModel([
      // The model read an earlier thread and calls the tool anyway.
      { toolCalls: [{ toolName: 'files_read', input: { path: 'a.txt' } }] },
      'The file server cannot be reached right now.',
    ]);
    const result = await runTurn({
      model,
      thread: 't2',
      message: 'Read a.txt',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource,
      now,
    });
    expect(result.trace.connectorStatus.files).toEqual({
      status: 'unavailable',
      retry_after: '2026-11-21T15:00:05Z',
    });
    expect(model.calls[0]!.tools?.map((tool) => tool.name)).not.toContain('files_read');
    expect(files.calls).toEqual([]);
    expect(result.trace.calls[0]).toMatchObject({
      sent: false,
      skipped: 'not_offered',
      envelope: { ok: false, error_type: 'tool_unavailable' },
    });
    expect(result.trace.counters.notOffered).toBe(1);
  });

  it('shows a server that needs a sign-in as not_configured, and a refused sign-in as invalid_credentials, each with the command', async () => {
    const { statusSource, orchestrator, files, notes } = await setup();
    // The health @patchbay/mcp reports for an OAuth server without tokens, and with revoked ones.
    files.setHealth({
      status: 'down',
      detail: 'needs a sign-in',
      reason: 'needs_authorization',
      setupCommand: 'patchbay connect files',
    } as AgentHealth);
    notes.setHealth({
      status: 'down',
      detail: 'refused',
      reason: 'authorization_rejected',
      setupCommand: 'patchbay connect notes',
      retryAt: '2026-11-21T15:00:04.200Z',
    } as AgentHealth);
    const model = createScriptedModel(['Connect your file server first.']);
    const result = await runTurn({
      model,
      thread: 't-auth',
      message: 'Read a.txt',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource,
      now,
    });
    expect(result.trace.connectorStatus.files).toEqual({
      status: 'not_configured',
      setup_command: 'patchbay connect files',
    });
    expect(result.trace.connectorStatus.notes).toEqual({
      status: 'invalid_credentials',
      setup_command: 'patchbay connect notes',
      error: 'The server refused the stored sign-in (revoked or expired).',
    });
    const offered = model.calls[0]!.tools?.map((tool) => tool.name) ?? [];
    expect(offered).not.toContain('files_read');
    expect(offered).not.toContain('notes_search');
    // A server down for another reason stays unavailable even with a reason.
    files.setHealth({ status: 'down', reason: 'connection_refused' } as AgentHealth);
    const again = await runTurn({
      model: createScriptedModel(['Later.']),
      thread: 't-auth-2',
      message: 'Read a.txt',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource,
      now,
    });
    expect(again.trace.connectorStatus.files).toEqual({ status: 'unavailable' });
  });

  it('leaves an admin-disabled server out of the block and the tools, and never runs a guessed call of it', async () => {
    const { statusSource, orchestrator, notes } = await setup();
    statusSource.disable('notes');
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'notes_search', input: { path: 'x' } }] },
      'I cannot do that here.',
    ]);
    const result = await runTurn({
      model,
      thread: 't3',
      message: 'Search my notes',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource,
      now,
    });
    expect(Object.keys(result.trace.connectorStatus)).toEqual(['files', 'tracker']);
    expect(contextOf(model)).not.toContain('\\"notes\\"');
    expect(contextOf(model)).not.toContain('notes_search');
    expect(model.calls[0]!.tools?.map((tool) => tool.name)).not.toContain('notes_search');
    // The gate alone would have run it: the orchestrator does not know admin policy for MCP servers.
    expect(notes.calls).toEqual([]);
    expect(result.trace.counters.notOffered).toBe(1);
  });

  it('leaves a stopped server out, and takes a server that went down mid-turn out of the next offer', async () => {
    const { statusSource, orchestrator, files, notes } = await setup();
    await orchestrator.stopAgent('notes');
    notes.setHealth({ status: 'stopped' });
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'files_read', input: { path: 'a.txt' } }] },
      { toolCalls: [{ toolName: 'files_read', input: { path: 'b.txt' } }] },
      'Read a.txt; b.txt could not be read.',
    ]);
    // The server drops right after answering the first call.
    const execute = files.agent.execute;
    files.agent.execute = async (...args) => {
      const envelope = await execute(...args);
      files.setHealth({ status: 'down' });
      return envelope;
    };
    const result = await runTurn({
      model,
      thread: 't4',
      message: 'Read a.txt then b.txt',
      subject,
      orchestrator,
      connectors: [tracker],
      statusSource,
      now,
    });
    expect(Object.keys(result.trace.connectorStatus)).toEqual(['files', 'tracker']);
    expect(result.trace.steps.map((step) => step.exposedTools.includes('files_read'))).toEqual([
      true,
      false,
      false,
    ]);
    expect(files.calls).toEqual([{ tool: 'files_read', args: { path: 'a.txt' } }]);
    expect(result.trace.calls[1]).toMatchObject({ skipped: 'not_offered', sent: false });
  });

  it('renders equal status byte-identically, servers included', async () => {
    const { statusSource, orchestrator } = await setup();
    const turn = async (thread: string) => {
      const model = createScriptedModel(['Hello.']);
      await runTurn({
        model,
        thread,
        message: 'Hi',
        subject,
        orchestrator,
        connectors: [tracker],
        statusSource,
        now,
      });
      return model.calls[0]!;
    };
    const first = await turn('t5');
    const second = await turn('t6');
    expect(JSON.stringify(second.prompt)).toBe(JSON.stringify(first.prompt));
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
  });
});
