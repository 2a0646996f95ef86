import { type Envelope, success } from '@patchbay/envelope';
import { type Agent, type AgentTool, createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { describe, expect, it } from 'vitest';
import { runTurn } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';
import { createInMemoryThreadStore } from './thread-store.js';
import { maxMediaChars } from './tool-result-media.js';

// An MCP tool's image reaches the model as a file part of the tool result, as the MCP agent leaves
// it in `meta.mcp_content` (see @patchbay/mcp call-result.ts); the stored thread keeps only the
// description. The agent here is a stand-in with the MCP agent's result shape.

const subject = 'ana';
const pixel =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function screenshotAgent(answer: () => Envelope): Agent {
  const tool: AgentTool = {
    name: 'browser_screenshot',
    description: 'Takes a screenshot of the page.',
    inputJsonSchema: { type: 'object', properties: {} },
    effect: 'read',
    requiredScopes: [],
    requires: [],
  };
  return {
    id: 'browser',
    trusted: true,
    async initialize() {},
    async shutdown() {},
    async health() {
      return { status: 'up' };
    },
    observedHealth: () => ({ status: 'up' }),
    manifest: () => ({ id: 'browser', kind: 'mcp', tools: [tool] }),
    execute: async () => answer(),
  };
}

const withImage = (data: string) =>
  success([{ type: 'image', mime_type: 'image/png', size_bytes: Math.floor((data.length * 3) / 4) }], {
    mcp_content: [{ type: 'image', data, mimeType: 'image/png' }],
  });

async function turnWith(answer: () => Envelope) {
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource, connectors: [] });
  orchestrator.register(screenshotAgent(answer));
  await orchestrator.start();
  const model = createScriptedModel([
    { toolCalls: [{ toolName: 'browser_screenshot', input: {} }] },
    'Seen.',
  ]);
  const threads = createInMemoryThreadStore();
  await runTurn({
    model,
    thread: 't1',
    message: 'Show me the page',
    subject,
    orchestrator,
    connectors: [],
    statusSource,
    threadStore: threads,
  });
  await orchestrator.stop();
  const toolMessage = model.calls[1]!.prompt.find((message) => message.role === 'tool');
  const part = toolMessage?.content[0];
  const output = part && part.type === 'tool-result' ? part.output : undefined;
  return { output, stored: JSON.stringify(await threads.load('t1')) };
}

describe('files returned by MCP tools', () => {
  it('reach the model as file parts of the tool result, and the stored thread keeps only the description', async () => {
    const { output, stored } = await turnWith(() => withImage(pixel));
    expect(output?.type).toBe('content');
    const value = output?.type === 'content' ? output.value : [];
    expect(value[0]).toMatchObject({ type: 'text' });
    expect(value[0]?.type === 'text' && value[0].text).toContain('"mime_type":"image/png"');
    expect(value[1]).toEqual({ type: 'file', mediaType: 'image/png', data: { type: 'data', data: pixel } });
    expect(stored).toContain('image/png');
    expect(stored).not.toContain(pixel);
  });

  it('stay described only when past the size budget', async () => {
    const huge = 'A'.repeat(maxMediaChars + 4);
    const { output } = await turnWith(() => withImage(huge));
    expect(output?.type).toBe('json');
  });

  it('leave a result without files as it was', async () => {
    const { output } = await turnWith(() => success({ title: 'Home' }));
    expect(output).toEqual({ type: 'json', value: { ok: true, data: { title: 'Home' } } });
  });
});
