import { messageSentAt } from '@patchbay/connector/ports';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { allConnectors, snapshotOf } from '../test/fixtures.ts';
import {
  anthropicCacheBreakpoint,
  assembleMessages,
  contextAcknowledgement,
  stampMessage,
} from './messages.js';
import { buildSystemPrompt } from './system-prompt.js';
import { renderTurnContext } from './turn-context.js';

const systemPrompt = buildSystemPrompt({ identity: 'You are a test agent.' });
const connectors = allConnectors();
const contextAt = (time: string, status: 'connected' | 'not_configured' = 'not_configured') =>
  renderTurnContext(snapshotOf({ slack: { status } }, time), { connectors });

describe('stampMessage', () => {
  it('adds a leading ISO time part without milliseconds, once', () => {
    const stamped = stampMessage(
      { role: 'user', content: 'Send it to Slack' },
      new Date('2026-11-21T15:00:00.123Z'),
    );
    expect(stamped.content).toEqual([
      { type: 'text', text: '[2026-11-21T15:00:00Z]' },
      { type: 'text', text: 'Send it to Slack' },
    ]);
    expect(messageSentAt(stamped)).toBe('2026-11-21T15:00:00Z');
    expect(stampMessage(stamped, '2030-01-01T00:00:00Z')).toBe(stamped);
  });

  it('stamps assistant messages with tool calls and leaves tool results alone', () => {
    const assistant = stampMessage(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: '1', toolName: 'slack_send_message', input: {} }],
      },
      '2026-11-21T15:00:05Z',
    );
    expect(assistant.content[0]).toEqual({ type: 'text', text: '[2026-11-21T15:00:05Z]' });
    const tool: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: '1',
          toolName: 'slack_send_message',
          output: { type: 'json', value: null },
        },
      ],
    };
    expect(stampMessage(tool, '2026-11-21T15:00:06Z')).toBe(tool);
  });
});

describe('assembleMessages', () => {
  const history: ModelMessage[] = [
    stampMessage({ role: 'user', content: 'Send the report to Slack' }, '2026-11-17T09:00:00Z'),
    stampMessage({ role: 'assistant', content: 'Slack is not connected yet.' }, '2026-11-17T09:00:04Z'),
  ];

  it('tail layout: system, unchanged history, then the user message with the context part first', () => {
    const userMessage = stampMessage({ role: 'user', content: 'Ok, send it now' }, '2026-11-21T15:00:00Z');
    const messages = assembleMessages({
      systemPrompt,
      history,
      userMessage,
      turnContext: contextAt('2026-11-21T15:00:00Z'),
    });
    expect(messages[0]).toEqual({ role: 'system', content: systemPrompt });
    expect(messages.slice(1, 3)).toEqual(history);
    expect(messages[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: contextAt('2026-11-21T15:00:00Z') },
        { type: 'text', text: '[2026-11-21T15:00:00Z]' },
        { type: 'text', text: 'Ok, send it now' },
      ],
    });
  });

  it('tail layout keeps every earlier turn a byte-identical prefix of the next', () => {
    const stored: ModelMessage[] = [];
    let previous: string | undefined;
    for (let turn = 0; turn < 6; turn += 1) {
      const time = `2026-11-21T15:0${turn}:00Z`;
      const userMessage = stampMessage({ role: 'user', content: `question ${turn}` }, time);
      const turnContext = contextAt(time, turn < 3 ? 'not_configured' : 'connected');
      const messages = assembleMessages({
        systemPrompt,
        history: stored,
        userMessage,
        turnContext,
        provider: 'anthropic',
      });
      // Breakpoint markers move, so compare without them: they are request metadata, not prompt bytes.
      const serialised = JSON.stringify(
        messages.slice(0, -1).map(({ providerOptions: _ignored, ...rest }) => rest),
      );
      if (previous !== undefined) {
        expect(serialised.startsWith(previous.slice(0, -1))).toBe(true);
      }
      previous = serialised;
      stored.push(userMessage, stampMessage({ role: 'assistant', content: `answer ${turn}` }, time));
    }
  });

  it('does not modify the stored history', () => {
    const copy = structuredClone(history);
    assembleMessages({ systemPrompt, history, userMessage: 'hi', turnContext: 'ctx', provider: 'anthropic' });
    expect(history).toEqual(copy);
  });

  it('puts the Anthropic breakpoint on the last history message in tail layout', () => {
    const messages = assembleMessages({
      systemPrompt,
      history,
      userMessage: 'hi',
      turnContext: 'ctx',
      provider: 'anthropic',
    });
    const marked = messages.flatMap((message, index) => (message.providerOptions ? [index] : []));
    expect(marked).toEqual([2]);
    expect(messages[2]?.providerOptions).toEqual(anthropicCacheBreakpoint);
  });

  it('puts it on the system prompt when there is no history yet, and nowhere for other providers', () => {
    const first = assembleMessages({
      systemPrompt,
      history: [],
      userMessage: 'hi',
      turnContext: 'ctx',
      provider: 'anthropic',
    });
    expect(first[0]?.providerOptions).toEqual(anthropicCacheBreakpoint);
    const openai = assembleMessages({
      systemPrompt,
      history,
      userMessage: 'hi',
      turnContext: 'ctx',
      provider: 'openai',
    });
    expect(openai.some((message) => message.providerOptions)).toBe(false);
  });

  it('after-system layout: context right after the system prompt, acknowledged, breakpoint on the system prompt', () => {
    const messages = assembleMessages({
      systemPrompt,
      history,
      userMessage: 'Ok, send it now',
      turnContext: 'CTX',
      layout: 'after-system',
      provider: 'anthropic',
    });
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages[0]?.providerOptions).toEqual(anthropicCacheBreakpoint);
    expect(messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'CTX' }] });
    expect(messages[2]).toEqual({ role: 'assistant', content: contextAcknowledgement });
    expect(messages[5]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Ok, send it now' }] });
    expect(messages.filter((message) => message.providerOptions)).toHaveLength(1);
  });

  it('rejects an unknown layout', () => {
    expect(() =>
      assembleMessages({
        systemPrompt,
        history,
        userMessage: 'x',
        turnContext: 'y',
        layout: 'middle' as never,
      }),
    ).toThrow(/unknown layout/);
  });
});
