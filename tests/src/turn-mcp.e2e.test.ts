import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGithub } from '@patchbay/connector-github';
import { createMcpAgent } from '@patchbay/mcp';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createTestServer } from '@patchbay/testing';
import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { githubHeaders, issue } from '../../connectors/github/src/fixtures/github-responses.js';

// One agent turn over every kind of tool, each from a real peer: a GitHub connector tool (its HTTP
// API answered by msw), a wrapped function, and a tool of a real MCP SDK server in a child process.
// Then the server goes down: the next turn shows it `unavailable`, offers none of its tools, and a
// call the model makes anyway reaches nothing; when it is back, so are its tools.

/** A server is a fresh node process: 1–3 s to start with both cores busy; 60 s leaves room for a hang only. */
const timeoutMs = 60_000;
const serverPath = fileURLToPath(new URL('./fixtures/notes-mcp-server.mjs', import.meta.url));
const api = 'https://api.github.com';
const subject = 'ana';
const github = createGithub();
const githubApi = createTestServer({
  [`GET ${api}/repos/:owner/:repo/issues/:number`]: { headers: githubHeaders(), body: issue },
});

const directory = mkdtempSync(join(tmpdir(), 'patchbay-turn-e2e-'));
const callLog = join(directory, 'calls.jsonl');
const downFile = join(directory, 'down');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Calls that reached the MCP server, over every process it ran as. */
const serverCalls = () =>
  existsSync(callLog) ? readFileSync(callLog, 'utf8').trim().split('\n').filter(Boolean).length : 0;

describe('a turn over a connector, a function and an MCP server', () => {
  it(
    'uses all three in one turn, loses the server’s tools while it is down, and gets them back',
    async () => {
      const statusSource = createInMemoryStatusSource();
      statusSource.connect(subject, 'github', {
        credentials: { token: 'ghp_000000000000000000000000000000000000' },
        scopes: ['repo'],
      });
      const orchestrator = createOrchestrator({ statusSource, connectors: [github] });
      const reminders: unknown[] = [];
      orchestrator.register(
        fromFunction({
          name: 'reminder_add',
          description: 'Adds a reminder for the user.',
          input: z.object({ text: z.string().describe('What to remind the user of') }),
          effect: 'write',
          execute: (input) => {
            reminders.push(input);
            return { added: true };
          },
        }),
      );
      const notes = createMcpAgent(
        {
          name: 'notes',
          transport: 'stdio',
          command: process.execPath,
          args: [serverPath],
          env: { NOTES_CALL_LOG: callLog, NOTES_DOWN_FILE: downFile },
          timeout: 10_000,
          autoStart: true,
          trust: false,
          prefix: 'notes',
        },
        // A fixed 3 s between reconnects: long enough to run a turn while one is scheduled.
        { reconnect: { initialDelayMs: 3_000, maxDelayMs: 3_000 }, connectTimeoutMs: 30_000 },
      );
      orchestrator.register(notes);
      await orchestrator.start();
      const sentToServer = vi.spyOn(notes, 'execute');
      const turn = (thread: string, script: Parameters<typeof createScriptedModel>[0]) => {
        const model = createScriptedModel(script);
        return runTurn({
          model,
          thread,
          message: 'Look up issue 1347, search my notes for it and remind me tomorrow.',
          subject,
          orchestrator,
          connectors: [github],
          statusSource,
        }).then((result) => ({ result, model }));
      };
      const everyTool = [
        'github_get_issue',
        'github_list_pull_requests',
        'github_search_issues',
        'notes_search',
        'reminder_add',
        'refresh_connector_status',
      ];

      try {
        // 1. Up: all three kinds are offered in one sorted list and run through the gate.
        const up = await turn('up', [
          {
            toolCalls: [
              {
                toolName: 'github_get_issue',
                input: { owner: 'octocat', repo: 'Hello-World', issue_number: 1347 },
              },
              { toolName: 'notes_search', input: { phrase: 'Found a bug' } },
              { toolName: 'reminder_add', input: { text: 'Fix issue 1347' } },
            ],
          },
          'Issue 1347 is open, one note mentions it, and the reminder is set.',
        ]);
        const offered = up.model.calls[0]!.tools!.map((tool) => tool.name);
        expect(offered.filter((name) => everyTool.includes(name))).toEqual(everyTool);
        expect(offered.at(-1)).toBe('refresh_connector_status');
        expect(up.result.trace.calls.map((call) => [call.toolName, call.envelope.ok, call.owner])).toEqual([
          ['github_get_issue', true, 'connector:github'],
          ['notes_search', true, 'notes'],
          ['reminder_add', true, 'function:reminder_add'],
        ]);
        expect(githubApi.calls).toHaveLength(1);
        expect(serverCalls()).toBe(1);
        expect(reminders).toEqual([{ text: 'Fix issue 1347' }]);
        expect(up.result.trace.connectorStatus.notes).toEqual({
          status: 'connected',
          tools: ['notes_search'],
        });

        // 2. Down: the server exits and may not start again while the down file exists.
        writeFileSync(downFile, '');
        process.kill(notes.pid!);
        // A turn runs while a reconnect is scheduled at least a second ahead, so retry_after is set.
        await vi.waitFor(
          () => {
            const retryAt = notes.observedHealth().retryAt;
            expect(retryAt && Date.parse(retryAt) - Date.now()).toBeGreaterThan(1_000);
          },
          { timeout: timeoutMs, interval: 50 },
        );
        sentToServer.mockClear();
        const down = await turn('down', [
          // The model remembers the tool from an earlier turn and calls it anyway.
          { toolCalls: [{ toolName: 'notes_search', input: { phrase: 'Found a bug' } }] },
          'The notes server cannot be reached right now.',
        ]);
        const status = down.result.trace.connectorStatus.notes;
        expect(status).toEqual({ status: 'unavailable', retry_after: expect.any(String) });
        expect((status as { retry_after: string }).retry_after).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(JSON.stringify(down.model.calls[0]!.prompt)).toContain('\\"notes\\":{\\"retry_after\\":');
        expect(down.model.calls[0]!.tools!.map((tool) => tool.name)).not.toContain('notes_search');
        expect(down.result.trace.calls[0]).toMatchObject({
          skipped: 'not_offered',
          sent: false,
          envelope: { ok: false, error_type: 'tool_unavailable' },
        });
        expect(down.result.trace.counters.notOffered).toBe(1);
        expect(sentToServer).not.toHaveBeenCalled();

        // 3. Back: the next reconnect succeeds and the tools return.
        rmSync(downFile);
        await vi.waitFor(() => expect(notes.observedHealth().status).toBe('up'), {
          timeout: timeoutMs,
          interval: 50,
        });
        const back = await turn('back', [
          { toolCalls: [{ toolName: 'notes_search', input: { phrase: 'again' } }] },
          'One note mentions it.',
        ]);
        expect(back.model.calls[0]!.tools!.map((tool) => tool.name)).toContain('notes_search');
        expect(back.result.trace.connectorStatus.notes).toEqual({
          status: 'connected',
          tools: ['notes_search'],
        });
        expect(back.result.trace.calls[0]!.envelope.ok).toBe(true);
        // Two calls in all: the one made while it was down never reached the server, not even later.
        expect(serverCalls()).toBe(2);
      } finally {
        await orchestrator.stop();
      }
    },
    timeoutMs * 3,
  );
});
