import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { allOutput, e2eTimeoutMs, packageDirectory, useDemoService } from '../test-fixtures/run-patchbay.js';

// Every test here starts CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

const demo = useDemoService(5);
const { patchbay, connectedHome } = demo;

describe('patchbay call', () => {
  it('runs a read tool through the orchestrator and prints the envelope', async () => {
    const home = await connectedHome();
    const result = await patchbay(home, ['call', 'demo_list_items']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: true,
      data: { items: [{ id: 'a1' }, { id: 'b2' }] },
    });
  });

  it('exits 4 with the error envelope when the tool cannot run', async () => {
    const home = demo.newHome();
    const notConnected = await patchbay(home, ['call', 'demo_list_items']);
    expect(notConnected.code).toBe(4);
    expect(JSON.parse(notConnected.stdout)).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      connector: 'demo',
    });
    const unknown = await patchbay(home, ['call', 'demo_list_itemz']);
    expect(unknown.code).toBe(4);
    expect(JSON.parse(unknown.stdout).error_type).toBe('tool_unavailable');
    expect(unknown.stderr).toContain('Did you mean demo_list_items?');
    const badJson = await patchbay(home, ['call', 'demo_list_items', '--args', '{nope']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('--args is not valid JSON');
  });

  it('asks for missing arguments with needs_input', async () => {
    const home = await connectedHome();
    const result = await patchbay(home, ['call', 'demo_delete_item', '--args', '{}']);
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error_type: 'needs_input',
      missing: [{ field: 'item_id' }],
    });
  });
});

describe('approvals across processes', () => {
  it('creates a proposal for a destructive call and runs it exactly once on approval', async () => {
    const home = await connectedHome();
    const call = await patchbay(home, ['call', 'demo_delete_item', '--args', '{"item_id":"a1"}']);
    expect(call.code).toBe(4);
    const envelope = JSON.parse(call.stdout);
    expect(envelope).toMatchObject({ ok: false, error_type: 'approval_required', connector: 'demo' });
    const id = envelope.proposal_id as string;
    expect(id).toMatch(/^prop_/);
    expect(call.stderr).toContain(`patchbay approve ${id}`);
    expect(demo.service.deleted).not.toContain('a1');

    const listed = JSON.parse((await patchbay(home, ['proposals', '--json'])).stdout);
    expect(listed).toEqual([
      expect.objectContaining({
        id,
        state: 'pending',
        tool: 'demo_delete_item',
        owner: 'connector:demo',
        args: { item_id: 'a1' },
      }),
    ]);

    // Two operators approve at the same moment from two processes: the call runs once.
    const [first, second] = await Promise.all([
      patchbay(home, ['approve', id]),
      patchbay(home, ['approve', id]),
    ]);
    const outcomes = [first, second].sort((a, b) => a.code - b.code);
    expect(outcomes.map((outcome) => outcome.code)).toEqual([0, 1]);
    expect(JSON.parse(outcomes[0]!.stdout)).toMatchObject({ ok: true, data: { deleted: 'a1' } });
    expect(outcomes[1]!.stderr).toMatch(/not pending/);
    expect(demo.service.deleted.filter((item) => item === 'a1')).toEqual(['a1']);

    const again = await patchbay(home, ['approve', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Proposal ${id} is executed, not pending.`);
    expect(demo.service.deleted.filter((item) => item === 'a1')).toEqual(['a1']);

    const after = JSON.parse((await patchbay(home, ['proposals', '--json', '--state', 'executed'])).stdout);
    expect(after).toEqual([
      expect.objectContaining({ id, state: 'executed', decided_by: expect.stringContaining('cli:default') }),
    ]);
  });

  it('records the reason of a rejection and never runs the call', async () => {
    const home = await connectedHome();
    const call = await patchbay(home, ['call', 'demo_delete_item', '--args', '{"item_id":"b2"}']);
    const id = JSON.parse(call.stdout).proposal_id as string;
    const reject = await patchbay(home, ['reject', id, '--reason', 'wrong item']);
    expect(reject.code).toBe(0);
    expect(reject.stdout).toContain(`Rejected ${id} (demo_delete_item): wrong item`);
    const listed = JSON.parse((await patchbay(home, ['proposals', '--json'])).stdout);
    expect(listed).toEqual([expect.objectContaining({ id, state: 'rejected', reason: 'wrong item' })]);
    const approve = await patchbay(home, ['approve', id]);
    expect(approve.code).toBe(1);
    // The agent retrying the same call learns it was declined, with the reason.
    const retry = await patchbay(home, ['call', 'demo_delete_item', '--args', '{"item_id":"b2"}']);
    expect(JSON.parse(retry.stdout)).toMatchObject({ error_type: 'approval_denied' });
    expect(JSON.parse(retry.stdout).user_message).toContain('wrong item');
    expect(demo.service.deleted).not.toContain('b2');
  });

  it('approving while the server is down leaves the proposal pending; a later approve runs it once', async () => {
    const home = demo.newHome();
    const servers = (command: string) =>
      writeFileSync(
        join(home, 'mcp-servers.json'),
        JSON.stringify({
          mcpServers: {
            echo: {
              command,
              args: [join(packageDirectory, 'test-fixtures', 'echo-mcp-server.mjs')],
              env: { ECHO_WITH_NOTE: '1' },
            },
          },
        }),
      );
    servers(process.execPath);
    const call = await patchbay(home, ['call', 'save_note', '--args', '{"note":"call Bob"}']);
    const id = JSON.parse(call.stdout).proposal_id as string;
    expect(id).toMatch(/^prop_/);

    servers(join(home, 'no-such-server'));
    const down = await patchbay(home, ['approve', id]);
    expect(down.code).toBe(4);
    expect(JSON.parse(down.stdout)).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
    expect(down.stderr).toContain(`Proposal ${id} is still pending`);
    const listed = JSON.parse((await patchbay(home, ['proposals', '--json'])).stdout);
    expect(listed).toEqual([expect.objectContaining({ id, state: 'pending' })]);

    servers(process.execPath);
    const up = await patchbay(home, ['approve', id]);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({ ok: true, data: 'saved: call Bob' });
    const again = await patchbay(home, ['approve', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Proposal ${id} is executed, not pending.`);
  });

  it('reports unknown proposal ids readably', async () => {
    const home = await connectedHome();
    for (const command of ['approve', 'reject']) {
      const result = await patchbay(home, [command, 'prop_doesnotexist']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('No proposal with id "prop_doesnotexist"');
    }
  });
});

describe('patchbay servers', () => {
  it('lists MCP servers with health and calls their tools', async () => {
    const home = demo.newHome();
    writeFileSync(
      join(home, 'mcp-servers.json'),
      JSON.stringify({
        mcpServers: {
          echo: {
            command: process.execPath,
            args: [join(packageDirectory, 'test-fixtures', 'echo-mcp-server.mjs')],
          },
          broken: { command: join(home, 'no-such-server') },
        },
      }),
    );
    const result = await patchbay(home, ['servers', '--json']);
    expect(result.code).toBe(0);
    const servers = JSON.parse(result.stdout).servers as { name: string; status: string; tools: string[] }[];
    expect(servers.find((server) => server.name === 'echo')).toMatchObject({ status: 'up', tools: ['echo'] });
    expect(servers.find((server) => server.name === 'broken')).toMatchObject({
      status: 'down',
      reason: 'command_not_found',
      detail: expect.stringContaining('was not found (ENOENT)'),
      tools: [],
    });
    const table = await patchbay(home, ['servers']);
    expect(table.stdout).toMatch(/echo\s+up/);
    expect(table.stdout).toMatch(/broken\s+down\s+command_not_found/);

    const call = await patchbay(home, ['call', 'echo', '--args', '{"text":"hello"}']);
    expect(call.code).toBe(0);
    expect(JSON.stringify(JSON.parse(call.stdout).data)).toContain('hello');
  });
});

describe('patchbay call with several MCP servers', () => {
  it('starts only the server that serves the tool', async () => {
    const home = demo.newHome();
    // A server that is slow to start (it never speaks MCP) and leaves a mark when its process starts.
    // Its prefix rules `echo` out; a server without one could serve any name, so a one-shot call
    // starts it too, to refuse a name two servers share as the gateway does.
    const mark = join(home, 'slow-server-started');
    const slowServer = `require('node:fs').writeFileSync(${JSON.stringify(mark)}, 'started'); setInterval(() => {}, 1000);`;
    writeFileSync(
      join(home, 'mcp-servers.json'),
      JSON.stringify({
        mcpServers: {
          echo: {
            command: process.execPath,
            args: [join(packageDirectory, 'test-fixtures', 'echo-mcp-server.mjs')],
          },
          slow: { command: process.execPath, args: ['-e', slowServer], prefix: 'slow' },
        },
      }),
    );
    const call = await patchbay(home, ['call', 'echo', '--args', '{"text":"only one"}']);
    expect(call.code).toBe(0);
    expect(JSON.stringify(JSON.parse(call.stdout).data)).toContain('only one');
    // Safety property: zero processes started for the server that does not serve the tool.
    expect(existsSync(mark)).toBe(false);
  });
});

// Runs last (tests in a file run in order): no output of any run above contained a token.
describe('secrets in output', () => {
  it('never printed a token in any CLI run of this file', () => {
    expect(allOutput.length).toBeGreaterThan(10);
    expect(allOutput.join('')).toContain('demo');
    for (const output of allOutput) {
      expect(output).not.toContain(demo.service.goodToken);
    }
  });
});
