import { describe, expect, it, vi } from 'vitest';
import { allConnectors } from '../test/fixtures.ts';
import { protocolBlockNames } from './prompt-blocks.js';
import { buildSystemPrompt } from './system-prompt.js';

const identity = 'You are Relay, the operations assistant of Example Corp.';

describe('buildSystemPrompt', () => {
  it('is byte-identical across turns, times and users for the same configuration', () => {
    const first = buildSystemPrompt({ identity, catalog: allConnectors() });
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2031-02-03T04:05:06Z'));
      // A different order of the same connectors, as another request might load them.
      const later = buildSystemPrompt({ identity, catalog: [...allConnectors()].reverse() });
      expect(later).toBe(first);
    } finally {
      vi.useRealTimers();
    }
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z(?!\])/);
  });

  it('contains every protocol block by default, in canonical order, after the identity', () => {
    const prompt = buildSystemPrompt({ identity });
    expect(prompt.startsWith(`${identity}\n\n<connector_protocol>\n`)).toBe(true);
    const positions = protocolBlockNames.map((name) => prompt.indexOf(`<${name}>`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt).not.toContain('<connector_catalog>');
  });

  it('covers the rules the model must follow', () => {
    const prompt = buildSystemPrompt({ identity });
    for (const phrase of [
      'Ready now',
      'Available after setup',
      'needs_input',
      'invalid_arguments',
      'connector_not_configured',
      'invalid_credentials',
      'rate_limited',
      'approval_required',
      'setup_url',
      'current_time',
      'refresh_connector_status',
      'Never invent',
    ]) {
      expect(prompt).toContain(phrase);
    }
  });

  it('includes only the selected blocks', () => {
    const prompt = buildSystemPrompt({ identity, blocks: ['meta_tools', 'error_handling'] });
    expect(prompt).toContain('<error_handling>');
    expect(prompt).toContain('<meta_tools>');
    expect(prompt).not.toContain('<connector_protocol>');
    expect(prompt.indexOf('<error_handling>')).toBeLessThan(prompt.indexOf('<meta_tools>'));
  });

  it('rejects an unknown block name', () => {
    expect(() => buildSystemPrompt({ identity, blocks: ['nope' as never] })).toThrow(
      /unknown protocol block "nope"/,
    );
  });

  it('lists the catalog sorted by connector id without any status', () => {
    const prompt = buildSystemPrompt({ identity, catalog: allConnectors() });
    const catalog = prompt.slice(prompt.indexOf('<connector_catalog>'));
    const ids = [...catalog.matchAll(/^- (\w+) \(/gm)].map((match) => match[1]);
    expect(ids).toEqual(['github', 'jira', 'linear', 'slack']);
    expect(catalog).not.toMatch(/not_configured|"connected"/);
  });

  it('carries every would_enable entry, which the per-turn block may shorten to the first', () => {
    const prompt = buildSystemPrompt({ identity, catalog: allConnectors() });
    const slackLine = prompt.split('\n').find((line) => line.startsWith('- slack ('));
    expect(slackLine).toContain('Would enable: Send messages to channels; Reply in threads.');
  });
});
