import { describe, expect, it } from 'vitest';
import { promptLabel } from './connect.js';

describe('promptLabel', () => {
  it('does not repeat a connector name the field description already says', () => {
    expect(
      promptLabel(
        { name: 'GitHub' },
        { description: 'GitHub personal access token (classic or fine-grained)' },
      ),
    ).toBe('GitHub personal access token (classic or fine-grained)');
    expect(promptLabel({ name: 'SMS (Twilio)' }, { description: 'Twilio Auth Token' })).toBe(
      'Twilio Auth Token',
    );
  });

  it('names the connector when the description does not', () => {
    expect(promptLabel({ name: 'Jira' }, { description: 'Atlassian API token' })).toBe(
      'Jira: Atlassian API token',
    );
  });
});
