import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testSecretKey } from './security-helpers.js';

// Attack (issue 33, items 5 and 8): a hostile MCP server lists a tool named like a connector tool
// (`github_create_issue`), or a tool whose `inputSchema` is 3,000 levels deep. `patchbay servers` and
// `patchbay call` printed their answer and never exited: a child started on the way was never shut
// down (a registration that threw skipped the stop; a listing that threw left the first attempt's
// client open while the retry made a new one). And with two servers serving `read_file`, a one-shot
// `patchbay call read_file` ran the first server's every time, where the gateway refuses.
//
// The CLI runs as a real process (from its sources, as `tsx` loads them) against real child servers,
// and each test counts what must not happen: CLI runs still alive at the deadline, hostile children
// alive after the CLI ended, calls that reached a server of a shared name.

/** A CLI run and up to three node children on a busy machine; only a hang reaches it. */
const runLimitMs = 90_000;
vi.setConfig({ testTimeout: runLimitMs * 2, hookTimeout: runLimitMs });

const root = join(import.meta.dirname, '..', '..', '..');
const cliSource = join(root, 'packages', 'cli', 'src', 'cli.ts');
const serverPath = join(import.meta.dirname, 'fixtures', 'hostile-mcp-server.mjs');
const directory = mkdtempSync(join(tmpdir(), 'patchbay-hostile-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Run {
  /** False when the CLI was still running at the limit and had to be killed: the hang. */
  exited: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `patchbay` from its sources in a child process, killed if it outlives `runLimitMs`. */
function patchbay(home: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@patchbay/source', '--import', 'tsx', cliSource, '--home', home, ...args],
      {
        cwd: join(root, 'tests'),
        env: { PATH: process.env.PATH ?? '', HOME: home, PATCHBAY_SECRET_KEY: testSecretKey },
        timeout: runLimitMs,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const killed = error !== null && (error as { killed?: boolean }).killed === true;
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ exited: !killed, code, stdout, stderr });
      },
    );
  });
}

/** A home whose mcp-servers.json runs the hostile server once per entry, each with its environment. */
function homeWith(servers: Record<string, Record<string, string>>) {
  const home = mkdtempSync(join(directory, 'home-'));
  const starts = join(home, 'starts.log');
  const calls = join(home, 'calls.log');
  const mcpServers = Object.fromEntries(
    Object.entries(servers).map(([name, env]) => [
      name,
      {
        command: process.execPath,
        args: [serverPath],
        env: { HOSTILE_NAME: name, HOSTILE_START_LOG: starts, HOSTILE_CALL_LOG: calls, ...env },
        trust: true,
      },
    ]),
  );
  writeFileSync(join(home, 'mcp-servers.json'), JSON.stringify({ mcpServers }));
  const lines = (path: string) =>
    existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean) : [];
  return {
    home,
    /** Hostile children still alive now. */
    liveChildren: () => lines(starts).filter((pid) => alive(Number(pid))).length,
    /** Children ever started. */
    started: () => lines(starts).length,
    /** Tool calls that reached any hostile server. */
    calls: () => lines(calls),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Children a killed CLI left behind are ended by the test, so a failing run does not leak them. */
function reap(liveChildren: () => number, starts: string) {
  if (liveChildren() === 0 || !existsSync(starts)) return;
  for (const pid of readFileSync(starts, 'utf8').trim().split('\n')) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

describe('a hostile MCP server cannot keep the CLI alive', () => {
  it.each([
    ['a tool named like a connector tool', { HOSTILE_TOOLS: 'github_create_issue,echo' }],
    ['a 3,000-level nested inputSchema', { HOSTILE_TOOLS: 'echo', HOSTILE_ATTACKS: 'deep_schema' }],
  ])('servers and call with %s: 0 runs left hanging, 0 children left alive', async (_attack, env) => {
    const server = homeWith({ hostile: env });
    try {
      const servers = await patchbay(server.home, ['servers']);
      const call = await patchbay(server.home, ['call', 'echo']);
      const outcome = {
        hungRuns: [servers, call].filter((run) => !run.exited).length,
        liveChildren: server.liveChildren(),
      };
      expect(outcome).toEqual({ hungRuns: 0, liveChildren: 0 });
      expect(server.started()).toBeGreaterThanOrEqual(2);
      expect(servers.code).toBe(0);
      expect(servers.stdout).toMatch(/hostile\s+up/);
      // A trusted server's read-write tool runs once: the call reached the server it was meant for.
      expect(JSON.parse(call.stdout)).toMatchObject({ ok: true, data: 'hostile:echo' });
      expect(server.calls()).toEqual(['hostile echo']);
    } finally {
      reap(server.liveChildren, join(server.home, 'starts.log'));
    }
  });

  it('servers prints one line per dropped tool, naming the limit', async () => {
    const server = homeWith({
      hostile: { HOSTILE_TOOLS: 'echo', HOSTILE_ATTACKS: 'deep_schema,long_name,path_name,meta_tool_name' },
    });
    try {
      const run = await patchbay(server.home, ['servers']);
      expect(run.exited).toBe(true);
      const dropped = run.stdout.split('\n').filter((line) => line.includes('of server hostile was dropped'));
      expect(dropped).toEqual([
        'Tool "deep_schema" of server hostile was dropped: its inputSchema is nested more than 64 levels deep.',
        expect.stringMatching(
          /^Tool "n{60}… \(5000 characters\)" of server hostile was dropped: its name has 5000/,
        ),
        'Tool "../../etc/passwd" of server hostile was dropped: its name looks like a file path.',
        'Tool "refresh_connector_status" of server hostile was dropped: "refresh_connector_status" is a name Patchbay answers itself.',
      ]);
      const json = await patchbay(server.home, ['servers', '--json']);
      expect(JSON.parse(json.stdout).servers[0]).toMatchObject({
        tools: ['echo'],
        dropped_tools: expect.any(Array),
      });
    } finally {
      reap(server.liveChildren, join(server.home, 'starts.log'));
    }
  });
});

describe('patchbay call refuses a name two servers serve', () => {
  it('reaches 0 servers and names both owners and the prefix fix', async () => {
    const server = homeWith({
      files: { HOSTILE_TOOLS: 'read_file' },
      notes: { HOSTILE_TOOLS: 'read_file,list_notes' },
    });
    try {
      const runs = [];
      for (let attempt = 0; attempt < 2; attempt += 1)
        runs.push(await patchbay(server.home, ['call', 'read_file']));
      expect({ executions: server.calls().length, liveChildren: server.liveChildren() }).toEqual({
        executions: 0,
        liveChildren: 0,
      });
      for (const run of runs) {
        expect(run.exited).toBe(true);
        expect(run.code).toBe(4);
        const envelope = JSON.parse(run.stdout) as { error_type: string; user_message: string };
        expect(envelope.error_type).toBe('tool_unavailable');
        expect(envelope.user_message).toContain('"files" and "notes"');
        expect(envelope.user_message).toContain('"prefix": "notes" makes its tool "notes_read_file"');
      }
      // Control: the name only one server serves runs there, once.
      const control = await patchbay(server.home, ['call', 'list_notes']);
      expect(JSON.parse(control.stdout)).toMatchObject({ ok: true, data: 'notes:list_notes' });
      expect(server.calls()).toEqual(['notes list_notes']);
    } finally {
      reap(server.liveChildren, join(server.home, 'starts.log'));
    }
  });
});
