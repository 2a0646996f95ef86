import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpAgent, type McpStdioServerConfig } from '@patchbay/mcp';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { afterAll, describe, expect, it } from 'vitest';

// Two real MCP servers announcing the same tool name: before, calls went to whichever connected
// first (six calls alternated between two servers). Now the name is served by neither until a
// prefix tells them apart, and no call reaches either server.

/** Starting three node processes on a machine with both cores busy; 60 s each leaves room for a hang only. */
const timeoutMs = 180_000;
const serverPath = fileURLToPath(new URL('./fixtures/notes-mcp-server.mjs', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'patchbay-tool-names-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const logOf = (name: string) => join(directory, `${name}.jsonl`);
const callsOf = (name: string) =>
  existsSync(logOf(name)) ? readFileSync(logOf(name), 'utf8').trim().split('\n').filter(Boolean).length : 0;

function server(name: string, prefix?: string): McpStdioServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [serverPath],
    env: { NOTES_CALL_LOG: logOf(name) },
    timeout: 10_000,
    autoStart: true,
    trust: true,
    prefix,
  };
}

describe('tool names of MCP servers', () => {
  it(
    'serves a name two servers announce from neither, and a prefixed copy from its own server',
    async () => {
      const orchestrator = createOrchestrator({ statusSource: createInMemoryStatusSource() });
      for (const config of [server('left'), server('right'), server('third', 'third')]) {
        orchestrator.register(createMcpAgent(config, { connectTimeoutMs: 60_000 }));
      }
      await orchestrator.start();
      try {
        expect(orchestrator.toolConflicts()).toEqual([
          { name: 'search', owners: expect.arrayContaining(['left', 'right']), servedBy: undefined },
        ]);
        for (let call = 0; call < 6; call += 1) {
          expect(await orchestrator.execute('search', { phrase: 'x' }, { subject: 'ana' })).toMatchObject({
            ok: false,
            error_type: 'tool_unavailable',
          });
        }
        expect(callsOf('left') + callsOf('right')).toBe(0);
        expect(orchestrator.ownerOf('third_search')).toBe('third');
        expect(await orchestrator.execute('third_search', { phrase: 'x' }, { subject: 'ana' })).toMatchObject(
          { ok: true },
        );
        expect(callsOf('third')).toBe(1);
      } finally {
        await orchestrator.stop();
      }
    },
    timeoutMs,
  );
});
