import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runTurn } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';

// The deployment's status-block settings (runTurn's `statusBlock`): the app's own setup page and the
// choice to show admin-disabled connectors with a reason, in the block, the refresh tool and the
// answer to an unoffered call alike.

const now = () => new Date('2026-11-21T15:00:00Z');
const subject = 'ana';
const appSetupUrl = 'https://app.example.com/settings/connections/tracker';

const connector = (id: string) =>
  createFixtureConnector({
    id,
    tools: [
      defineTool({
        name: `${id}_list_issues`,
        description: 'Lists the open issues of a project.',
        input: z.object({ project: z.string().describe('Project key') }),
        effect: 'read',
        execute: async () => success([]),
      }),
    ],
  });

async function turn(statusBlock: Parameters<typeof runTurn>[0]['statusBlock']) {
  const tracker = connector('tracker');
  const billing = connector('billing');
  const statusSource = createInMemoryStatusSource();
  statusSource.disable('billing');
  const orchestrator = createOrchestrator({
    statusSource,
    connectors: [tracker, billing],
    setupUrls: { tracker: appSetupUrl },
  });
  await orchestrator.start();
  const model = createScriptedModel([
    // Called although not offered: the answer says how to set it up, at the app's page.
    { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
    { toolCalls: [{ toolName: 'refresh_connector_status', input: {} }] },
    'Tracker is not connected yet.',
  ]);
  const result = await runTurn({
    model,
    thread: 't1',
    message: 'What is open in WEB?',
    subject,
    orchestrator,
    connectors: [tracker, billing],
    statusSource,
    now,
    ...(statusBlock ? { statusBlock } : {}),
  });
  await orchestrator.stop();
  return { result, prompt: JSON.stringify(model.calls[0]!.prompt) };
}

describe('runTurn statusBlock', () => {
  it("puts the app's setup page in the block, the refresh tool and the unoffered call's answer", async () => {
    const { result, prompt } = await turn({ setupUrls: { tracker: appSetupUrl } });
    expect(result.trace.connectorStatus.tracker).toMatchObject({
      status: 'not_configured',
      setup_url: appSetupUrl,
    });
    expect(prompt).toContain(appSetupUrl);
    const [unoffered, refreshed] = result.trace.calls;
    expect(unoffered?.envelope).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      setup_url: appSetupUrl,
    });
    expect(JSON.stringify(refreshed?.envelope)).toContain(appSetupUrl);
    // The disabled connector stays out unless the deployment shows it.
    expect(result.trace.connectorStatus).not.toHaveProperty('billing');
    expect(prompt).not.toContain('billing');
  });

  it('without settings the connector’s own setup URL stands', async () => {
    const { result } = await turn(undefined);
    const own = connector('tracker').setupUrl;
    expect(result.trace.connectorStatus.tracker).toMatchObject({ setup_url: own });
    expect(result.trace.calls[0]?.envelope).toMatchObject({ setup_url: own });
  });

  it('shows admin-disabled connectors with their reason when the deployment asks', async () => {
    const { result, prompt } = await turn({
      includeDisabled: true,
      disabledReasons: { billing: 'Organization policy' },
    });
    expect(result.trace.connectorStatus.billing).toEqual({
      status: 'disabled_by_admin',
      reason: 'Organization policy',
    });
    expect(prompt).toContain('Organization policy');
  });
});
