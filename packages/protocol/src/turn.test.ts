import { describe, expect, it } from 'vitest';
import { allConnectors } from '../test/fixtures.ts';
import { describeCapabilities } from './capabilities.js';
import { captureStatus } from './capture-status.js';
import { createInMemoryStatusSource } from './in-memory-status-source.js';
import { assembleMessages, stampMessage } from './messages.js';
import { toLanguageModelTools } from './model-tools.js';
import { buildSystemPrompt } from './system-prompt.js';
import { exposedTools, unavailableTools } from './tool-exposure.js';
import { renderTurnContext } from './turn-context.js';

describe('one turn, end to end', () => {
  const connectors = allConnectors();

  async function turnFor(subject: string, now: Date) {
    const source = createInMemoryStatusSource();
    source.connect(subject, 'github', { credentials: { token: 'gh' }, scopes: ['repo', 'issues:write'] });
    source.connect(subject, 'jira', { credentials: { token: 'jira' } });
    source.connect(subject, 'linear', { credentials: { token: 'linear' } });
    source.disable('linear');
    const snapshot = await captureStatus({ connectors, source, subject, now });
    const turnContext = renderTurnContext(snapshot, { connectors });
    const tools = exposedTools(snapshot, connectors);
    const messages = assembleMessages({
      systemPrompt: buildSystemPrompt({ identity: 'You are a test agent.' }),
      history: [],
      userMessage: stampMessage({ role: 'user', content: 'What can you do?' }, now),
      turnContext,
      provider: 'anthropic',
    });
    return { snapshot, turnContext, tools, messages };
  }

  it('never shows a connector disabled by an admin: not in the context, tools, capabilities or messages', async () => {
    const { snapshot, turnContext, tools, messages } = await turnFor('ana', new Date('2026-11-21T15:00:00Z'));
    expect(snapshot.connectors.linear?.status).toBe('disabled_by_admin');
    expect(turnContext).not.toMatch(/linear/i);
    expect(JSON.stringify(toLanguageModelTools(tools))).not.toMatch(/linear/i);
    expect(JSON.stringify(describeCapabilities(snapshot, connectors))).not.toMatch(/linear/i);
    expect(
      unavailableTools(snapshot, connectors)
        .map((tool) => tool.name)
        .join(),
    ).not.toMatch(/linear/i);
    expect(JSON.stringify(messages)).not.toMatch(/linear/i);
  });

  it('differs between users and turns only in the per-turn context and the user message', async () => {
    const first = await turnFor('ana', new Date('2026-11-21T15:00:00Z'));
    const second = await turnFor('bo', new Date('2026-11-22T08:30:00Z'));
    expect(second.messages[0]).toEqual(first.messages[0]);
    expect(second.tools).toEqual(first.tools);
    expect(second.turnContext.replaceAll('2026-11-22T08:30:00Z', 'T')).toBe(
      first.turnContext.replaceAll('2026-11-21T15:00:00Z', 'T'),
    );
  });
});
