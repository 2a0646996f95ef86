import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpAgent, type McpGatewayHttpServer, serveMcpGatewayHttp } from '@patchbay/mcp';
import { createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The MCP conformance suite (@modelcontextprotocol/conformance) runs its server scenarios, as an MCP
// client of its own, against the gateway served over streamable HTTP, as `patchbay mcp --http` serves
// it. Behind the gateway sits a real stdio server with the tools the tool scenarios call, so those
// pass only if the gateway relays the upstream result (content blocks, errors, progress) faithfully.
// The baseline lists the scenarios for capabilities the gateway does not claim, each with its reason;
// the suite itself fails the run on a scenario that newly fails, and on a listed one that now passes.

const here = dirname(fileURLToPath(import.meta.url));
const baselinePath = join(here, '../conformance/server-baseline.yml');
const referenceServerPath = join(here, '../conformance/reference-server.mjs');
const conformanceCli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);
// ~30 scenarios, each a fresh session; 1–3 s each on a busy two-core machine, 2–5× that at worst.
const suiteTimeoutMs = 300_000;

let orchestrator: Orchestrator;
let served: McpGatewayHttpServer;
let workDirectory: string;

beforeAll(async () => {
  const statusSource = createInMemoryStatusSource();
  orchestrator = createOrchestrator({ statusSource, connectors: [] });
  orchestrator.register(
    createMcpAgent({
      name: 'reference',
      transport: 'stdio',
      command: process.execPath,
      args: [referenceServerPath],
      env: {},
      timeout: 20_000,
      autoStart: true,
      trust: true,
    }),
  );
  await orchestrator.start();
  served = await serveMcpGatewayHttp({
    gateway: { orchestrator, connectors: [], statusSource, subject: 'conformance', refreshIntervalMs: 0 },
    port: 0,
  });
  workDirectory = await mkdtemp(join(tmpdir(), 'patchbay-conformance-'));
}, 120_000);

afterAll(async () => {
  await served?.close();
  await orchestrator?.stop();
  if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
});

function runConformance(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [conformanceCli, ...args],
      // Results are written under the working directory: keep them out of the repository.
      { cwd: workDirectory, timeout: suiteTimeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe('MCP conformance, server scenarios, against the HTTP gateway', () => {
  it('the tool scenarios reach the upstream server: its results, not a gateway refusal', async () => {
    const client = new Client({ name: 'conformance-precheck', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    try {
      for (const name of ['test_simple_text', 'test_image_content', 'test_multiple_content_types']) {
        const result = await client.callTool({ name, arguments: {} });
        expect(result.structuredContent, name).toMatchObject({ ok: true });
      }
      const failed = await client.callTool({ name: 'test_error_handling', arguments: {} });
      expect(failed.structuredContent).toMatchObject({ ok: false, error_type: 'upstream_error' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it(
    'passes every scenario except the baseline’s, and every baseline entry still fails',
    async () => {
      const { code, output } = await runConformance([
        'server',
        '--url',
        served.url,
        '--expected-failures',
        baselinePath,
      ]);
      expect(code, output).toBe(0);
    },
    suiteTimeoutMs + 10_000,
  );
});
