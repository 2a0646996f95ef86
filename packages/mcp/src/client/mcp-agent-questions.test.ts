import { fileURLToPath } from 'node:url';
import type { StatusSource } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callContext, childServerTimeoutMs, controllableConfig } from './controllable-fixture.js';
import { askUserOnElicitation, type ElicitationRequest } from './elicitation.js';
import { createMcpAgent, type McpAgent, type McpAgentOptions } from './mcp-agent.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

const askingServerPath = fileURLToPath(new URL('../../test-servers/asking-server.mjs', import.meta.url));
const agents: McpAgent[] = [];

async function asking(options: McpAgentOptions = {}): Promise<McpAgent> {
  const agent = createMcpAgent(controllableConfig('asking', { args: [askingServerPath] }), options);
  agents.push(agent);
  await agent.initialize();
  expect(agent.status).toBe('up');
  return agent;
}

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.shutdown()));
});

describe('questions from an MCP server become needs_input', () => {
  it('reads a "Question:" tool error as needs_input about the one field the call left out', async () => {
    const agent = await asking();
    expect(await agent.execute('send_report', { title: 'Q3' }, callContext())).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'to', question: 'Who should receive the report? Please give an email address.' }],
    });
    expect(
      await agent.execute('send_report', { title: 'Q3', to: 'a@example.com' }, callContext()),
    ).toMatchObject({ ok: true, data: 'sent "Q3" to a@example.com' });
  });

  it('leaves an ordinary error that merely uses question words a tool error', async () => {
    const agent = await asking();
    const envelope = await agent.execute('plain_failure', {}, callContext());
    expect(envelope).toMatchObject({ ok: false, error_type: 'upstream_error' });
    expect(envelope).not.toHaveProperty('missing');
  });

  it('declares elicitation only when the app gives a handler', async () => {
    const without = await asking();
    expect(await without.execute('client_capabilities', {}, callContext())).toMatchObject({
      ok: true,
      data: { capabilities: {} },
    });
    // Without the capability the server's SDK refuses to elicit; the call is an ordinary tool error.
    expect(await without.execute('send_elicited', { title: 'Q3' }, callContext())).toMatchObject({
      ok: false,
      error_type: 'upstream_error',
    });
    const withHandler = await asking({ elicitation: askUserOnElicitation });
    expect(await withHandler.execute('client_capabilities', {}, callContext())).toMatchObject({
      ok: true,
      data: { capabilities: { elicitation: { form: { applyDefaults: true } } } },
    });
  });

  it('turns an elicitation the app leaves to the user into needs_input with the field and question', async () => {
    const agent = await asking({ elicitation: askUserOnElicitation });
    expect(await agent.execute('send_elicited', { title: 'Q3' }, callContext())).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'recipient', question: 'Email address of the recipient' }],
      meta: { tool: 'send_elicited' },
    });
  });

  it('passes the handler the call it belongs to and sends its answer to the server', async () => {
    const requests: ElicitationRequest[] = [];
    const agent = await asking({
      elicitation: (request) => {
        requests.push(request);
        return { action: 'accept', content: { recipient: 'b@example.com' } };
      },
    });
    const context = callContext();
    expect(await agent.execute('send_elicited', { title: 'Q4' }, context)).toMatchObject({
      ok: true,
      data: 'sent "Q4" to b@example.com',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      server: 'asking',
      tool: 'send_elicited',
      subject: context.subject,
      message: 'Who should receive the report?',
      fields: [{ field: 'recipient', question: 'Email address of the recipient' }],
    });
  });

  it('cancels the question when the app handler throws, and the call ends as the server decides', async () => {
    const agent = await asking({
      elicitation: () => {
        throw new Error('the app broke with internal detail');
      },
    });
    const envelope = await agent.execute('send_elicited', { title: 'Q3' }, callContext());
    expect(envelope).toMatchObject({ ok: false, error_type: 'upstream_error' });
    expect(JSON.stringify(envelope)).toContain('the user did not answer (cancel)');
    expect(JSON.stringify(envelope)).not.toContain('internal detail');
  });

  it('never puts a request for a secret to the handler or the user', async () => {
    const handler = vi.fn(askUserOnElicitation);
    const agent = await asking({ elicitation: handler });
    const envelope = await agent.execute('connect_account', {}, callContext());
    // Safety property: zero secret questions reach the app, the user or the envelope's `missing`.
    expect(handler).toHaveBeenCalledTimes(0);
    expect(envelope).toMatchObject({ ok: false, error_type: 'upstream_error', retryable: false });
    expect(envelope).not.toHaveProperty('missing');
    expect(JSON.stringify(envelope)).toContain('asked for a secret (api_key)');
  });
});

describe('a server question through the orchestrator gate', () => {
  it('reaches the caller as needs_input with its missing field, as our own tools answer', async () => {
    const statusSource: StatusSource = {
      load: async () => ({ connections: [], disabledConnectorIds: [], rateLimitedUntil: {} }),
      markRateLimited: async () => undefined,
      markInvalidCredentials: async () => undefined,
    };
    const orchestrator = createOrchestrator({ statusSource });
    // Trusted, so the write tool runs without an approval and the server's own answer comes back.
    const agent = createMcpAgent(
      controllableConfig('asking-gate', { args: [askingServerPath], trust: true }),
    );
    orchestrator.register(agent);
    try {
      await orchestrator.startAgent(agent.id);
      expect(await orchestrator.execute('send_report', { title: 'Q3' }, { subject: 'alice' })).toMatchObject({
        ok: false,
        error_type: 'needs_input',
        missing: [{ field: 'to', question: 'Who should receive the report? Please give an email address.' }],
      });
    } finally {
      await orchestrator.stop();
    }
  });
});

describe('prompts of an MCP server', () => {
  it('lists the prompts and renders one with its arguments', async () => {
    const agent = await asking();
    const prompts = await agent.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['house_rules', 'summarize']);
    expect(prompts.find((prompt) => prompt.name === 'summarize')).toMatchObject({
      description: 'Summarize a topic in three sentences.',
      arguments: [{ name: 'topic', required: true }],
    });
    expect(await agent.getPrompt('summarize', { topic: 'the Q3 report' })).toMatchObject({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Summarize the Q3 report in three sentences.' } },
      ],
    });
    expect(await agent.getPrompt('house_rules')).toMatchObject({
      messages: [{ content: { text: 'Be brief. Cite sources.' } }],
    });
  });

  it('answers an unknown prompt with upstream_error and a server without prompts with an empty list', async () => {
    const agent = await asking();
    const error = await agent.getPrompt('no_such_prompt').catch((caught: unknown) => caught);
    expect(PatchbayError.isInstance(error) && error.code).toBe('upstream_error');
    const plain = createMcpAgent(controllableConfig('plain'));
    agents.push(plain);
    await plain.initialize();
    expect(await plain.listPrompts()).toEqual([]);
  });

  it('says the server is not connected when it is down', async () => {
    const agent = createMcpAgent(controllableConfig('never', { command: '/nonexistent/mcp-server' }));
    agents.push(agent);
    const error = await agent.listPrompts().catch((caught: unknown) => caught);
    expect(PatchbayError.isInstance(error) && error.code).toBe('tool_unavailable');
  });
});
