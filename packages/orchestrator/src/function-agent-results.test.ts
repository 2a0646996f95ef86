import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestStatusSource } from '../test/support.js';
import { fromFunction } from './function-agent.js';
import { createOrchestrator } from './orchestrator.js';

describe('what a function tool returns', () => {
  it("is a failure when it is seed 000's error object (no retryable), never a success the model trusts", async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(
      fromFunction({
        name: 'notify_team',
        description: 'Notifies the team channel about a release.',
        input: z.object({ text: z.string().describe('What to say') }),
        effect: 'write',
        trusted: true,
        execute: async () => ({
          ok: false,
          error_type: 'connector_not_configured',
          user_message: 'Slack is not connected. Set it up in Settings → Integrations → Slack.',
          connector: 'slack',
          setup_url: '/settings/integrations/slack',
        }),
      }),
    );
    await orchestrator.start();
    const envelope = await orchestrator.execute('notify_team', { text: 'Shipped' }, { subject: 'ana' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      setup_url: '/settings/integrations/slack',
      retryable: false,
    });
  });
});
