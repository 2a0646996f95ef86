import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { createOrchestrator } from '@patchbay/orchestrator';
import { buildSystemPrompt, createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunTurnOptions, runTurn } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';

const wouldEnable = [
  'Post messages to team channels',
  'Tell the team when a deploy finishes',
  'Summarise a channel on request',
];

const chat = createFixtureConnector({
  id: 'chat',
  wouldEnable,
  tools: [
    {
      name: 'chat_post_message',
      description: 'Posts a message to a channel.',
      input: z.object({ text: z.string().describe('Message text') }),
      effect: 'write',
    },
  ],
});

const textOf = (message: LanguageModelV4Prompt[number]): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => ('text' in part ? part.text : '')).join('\n');

/** Runs one turn (chat not connected) and returns the system prompt and the per-turn status JSON the model got. */
async function firstPrompt(options: Partial<RunTurnOptions>) {
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource, connectors: [chat] });
  const model = createScriptedModel([{ text: 'Chat is not connected yet.' }]);
  const { trace } = await runTurn({
    model,
    thread: { id: 'thread-1', messages: [] },
    message: 'Can you post to the team?',
    subject: 'user-1',
    orchestrator,
    connectors: [chat],
    statusSource,
    ...options,
  });
  const prompt = trace.steps[0]!.prompt;
  const system = prompt
    .filter((message) => message.role === 'system')
    .map(textOf)
    .join('\n');
  const rest = prompt
    .filter((message) => message.role !== 'system')
    .map(textOf)
    .join('\n');
  const block = /<connector_status[^>]*>(.*?)<\/connector_status>/s.exec(rest);
  expect(block).not.toBeNull();
  const status = JSON.parse(block![1]!) as Record<string, { status: string; would_enable?: string[] }>;
  return { system, wouldEnableInBlock: status.chat?.would_enable };
}

describe('runTurn with the connector catalog', () => {
  it('with catalog: the system prompt lists every would_enable entry, the per-turn block only the first', async () => {
    const { system, wouldEnableInBlock } = await firstPrompt({ catalog: true });
    expect(system).toContain('<connector_catalog>');
    for (const entry of wouldEnable) expect(system).toContain(entry);
    expect(wouldEnableInBlock).toEqual([wouldEnable[0]]);
  });

  it('without catalog: the per-turn block keeps every entry, since nothing else lists them', async () => {
    const { system, wouldEnableInBlock } = await firstPrompt({});
    expect(system).not.toContain('<connector_catalog>');
    expect(wouldEnableInBlock).toEqual(wouldEnable);
  });

  it('with an own system prompt: shortens the block only when told the prompt carries the catalog', async () => {
    const withCatalog = buildSystemPrompt({ identity: 'You are a test agent.', catalog: [chat] });
    const told = await firstPrompt({ systemPrompt: withCatalog, catalogInSystemPrompt: true });
    expect(told.system).toBe(withCatalog);
    expect(told.wouldEnableInBlock).toEqual([wouldEnable[0]]);
    const untold = await firstPrompt({ systemPrompt: withCatalog });
    expect(untold.wouldEnableInBlock).toEqual(wouldEnable);
    // `catalog` builds a prompt; it says nothing about a prompt the caller wrote without one.
    const own = await firstPrompt({ systemPrompt: 'You are a test agent.', catalog: true });
    expect(own.system).toBe('You are a test agent.');
    expect(own.wouldEnableInBlock).toEqual(wouldEnable);
  });
});
