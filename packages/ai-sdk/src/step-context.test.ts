import { anthropicCacheBreakpoint } from '@patchbay/protocol';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { cacheProviderOf, placeStepContext } from './step-context.js';

const block = (time: string) =>
  `<current_time>${time}</current_time>\n<connector_status captured_at="${time}">{}</connector_status>`;

describe('placeStepContext', () => {
  it('replaces the block an earlier step placed instead of adding a second one', () => {
    const placed = new Set<string>();
    const messages: ModelMessage[] = [{ role: 'user', content: 'Hi' }];
    const first = placeStepContext({
      messages,
      instructions: 'system',
      context: block('2026-11-21T15:00:00Z'),
      layout: 'tail',
      provider: 'other',
      placed,
    });
    const carried: ModelMessage[] = [...first.messages, { role: 'assistant', content: 'Working on it.' }];
    const second = placeStepContext({
      messages: carried,
      instructions: 'system',
      context: block('2026-11-21T15:00:05Z'),
      layout: 'tail',
      provider: 'other',
      placed,
    });

    expect(second.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: block('2026-11-21T15:00:05Z') },
          { type: 'text', text: 'Hi' },
        ],
      },
      { role: 'assistant', content: 'Working on it.' },
    ]);
  });

  it('gives a run without a user message the block as a message of its own, still only once', () => {
    const placed = new Set<string>();
    const first = placeStepContext({
      messages: [],
      instructions: 'system',
      context: block('2026-11-21T15:00:00Z'),
      layout: 'tail',
      provider: 'other',
      placed,
    });
    const second = placeStepContext({
      messages: first.messages,
      instructions: 'system',
      context: block('2026-11-21T15:00:05Z'),
      layout: 'tail',
      provider: 'other',
      placed,
    });
    expect(second.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: block('2026-11-21T15:00:05Z') }] },
    ]);

    const seed = placeStepContext({
      messages: second.messages,
      instructions: 'system',
      context: block('2026-11-21T15:00:09Z'),
      layout: 'after-system',
      provider: 'other',
      placed,
    });
    expect(seed.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: block('2026-11-21T15:00:09Z') }] },
      { role: 'assistant', content: 'Understood. I will go by this status and time.' },
    ]);
  });

  it('puts the Anthropic cache breakpoint on the last stable block, as runTurn does', () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'File it.' },
    ];
    const withHistory = placeStepContext({
      messages: history,
      instructions: 'system',
      context: block('2026-11-21T15:00:00Z'),
      layout: 'tail',
      provider: 'anthropic',
      placed: new Set(),
    });
    expect(withHistory.instructions).toBeUndefined();
    expect(withHistory.messages[1]).toMatchObject({
      role: 'assistant',
      providerOptions: anthropicCacheBreakpoint,
    });

    const firstMessage = placeStepContext({
      messages: history.slice(2),
      instructions: 'system',
      context: block('2026-11-21T15:00:00Z'),
      layout: 'tail',
      provider: 'anthropic',
      placed: new Set(),
    });
    expect(firstMessage.instructions).toEqual({
      role: 'system',
      content: 'system',
      providerOptions: anthropicCacheBreakpoint,
    });
  });

  it('reads the cache family from a model or a gateway id', () => {
    expect(cacheProviderOf('anthropic/claude-sonnet-4.5')).toBe('anthropic');
    expect(cacheProviderOf('openai/gpt-5')).toBe('openai');
    expect(cacheProviderOf('mistral/large')).toBe('other');
  });
});
