// Real MCP servers in a scenario, through the orchestrator like any MCP server of a deployment:
// - `mcp:` servers are @patchbay/mcp's controllable test server (a STAND-IN service, but a real MCP SDK
//   server in a child process over stdio, spoken to by the real MCP client of `createMcpAgent`). Its
//   tools carry the server's name as prefix (`lab_hang`). `down` makes the process exit before it
//   speaks MCP; `secret_env` hands it a credential as a declared (secret) environment value;
//   `hostile_names` adds tools named as model APIs refuse (`lab_get.weather`). Each server writes every
//   call it receives to a file of its own (`server_calls` reads them: what reached the server).
//   `json_schema_tools` serves, instead, the write tools of ./json-schema-tools-server.mjs, declared by
//   JSON Schema only (`$ref`, `allOf`/`anyOf`/`oneOf`, defaults, `additionalProperties`, …), no zod.
// - `memory:` is the memory server of @patchbay/memory over streamable HTTP on a real SQLite store,
//   with `turnMemory` as the turn's memory: the memory agent's model is a stand-in
//   (agents/memory-model.mjs). `down` closes the HTTP server and restarts the client, which then finds
//   nothing listening (connection refused), as after a crash of a remote memory server.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpAgent } from '@patchbay/mcp';
import {
  builtInPromptLoader,
  createMemoryAgent,
  ensureMemory,
  memoryToolNames,
  serveMemoryHttp,
  turnMemory,
} from '@patchbay/memory';
import { openStore } from '@patchbay/store';
import { hostileToolNames } from '../../packages/mcp/test-servers/controllable-server.mjs';
import { createMemoryModel } from '../agents/memory-model.mjs';
import { jsonSchemaToolNames } from './json-schema-tools-server.mjs';

const controllableServerPath = fileURLToPath(
  new URL('../../packages/mcp/test-servers/controllable-server.mjs', import.meta.url),
);
const jsonSchemaToolsServerPath = fileURLToPath(new URL('./json-schema-tools-server.mjs', import.meta.url));

/** The tools of the controllable test server (packages/mcp/test-servers/controllable-server.mjs). */
export const controllableToolNames = [
  'add_tool',
  'big_result',
  'busy',
  'crash',
  'delete_everything',
  'echo',
  'echo_structured',
  'fail',
  'hang',
  'read_env',
  'remove_tool',
  'report_meta',
  'slow_once',
  // Served with `hostile_names: true` only.
  ...hostileToolNames,
  // Served with `json_schema_tools: true` only (instead of the tools above).
  ...jsonSchemaToolNames,
];

/** The memory server's tools, as the chat model and the memory agent call them (no prefix). */
export const memoryTools = [...memoryToolNames];

/** The credential a scenario's MCP server gets as its `secret_env` value (returned to the leak checks by `registerMcpServers`). */
export const mcpSecretOf = (name) => `eval-${name}-token-0001`;

// Reconnects are spaced beyond any scenario: a server that is down stays down for the scenario.
const agentOptions = {
  reconnect: { initialDelayMs: 600_000, maxDelayMs: 600_000 },
  connectTimeoutMs: 60_000,
};

/**
 * The agent with every tool requiring `requires` (a tool's `requires`: offered and run only while
 * those connectors are connected). @patchbay/mcp's server config has no such setting, so the eval
 * adds it where the orchestrator reads tools: the agent's manifest.
 */
function requiring(agent, requires) {
  return new Proxy(agent, {
    get(target, key) {
      if (key === 'manifest')
        return () => {
          const manifest = target.manifest();
          return { ...manifest, tools: manifest.tools.map((tool) => ({ ...tool, requires: [...requires] })) };
        };
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Registers one MCP agent per `mcp:` server of the scenario in the orchestrator (before it starts). */
export function registerMcpServers(orchestrator, servers = {}) {
  // Every credential handed out, so the leak checks search for these exact values.
  const secrets = [];
  // One call log per server: the controllable server appends each tool's name as its call arrives.
  const logs = mkdtempSync(join(tmpdir(), 'patchbay-eval-mcp-calls-'));
  const logOf = (name) => join(logs, `${name}.log`);
  const taken = new Map();
  for (const [name, raw] of Object.entries(servers)) {
    const spec = typeof raw === 'string' ? { state: raw } : raw;
    const agent = createMcpAgent(
      {
        name,
        transport: 'stdio',
        command: process.execPath,
        args: [spec.json_schema_tools ? jsonSchemaToolsServerPath : controllableServerPath],
        env: {
          CONTROLLABLE_NAME: name,
          ...(spec.state === 'down' ? { CONTROLLABLE_CRASH_ON_START: '1' } : {}),
          ...(spec.secret_env ? { [spec.secret_env]: mcpSecretOf(name) } : {}),
          ...(spec.hostile_names ? { CONTROLLABLE_HOSTILE_NAMES: '1' } : {}),
          CONTROLLABLE_CALL_LOG: logOf(name),
        },
        timeout: spec.timeout_ms ?? 10_000,
        autoStart: true,
        trust: spec.trust ?? false,
        prefix: name,
      },
      agentOptions,
    );
    orchestrator.register(spec.requires ? requiring(agent, spec.requires) : agent);
    if (spec.secret_env) secrets.push(mcpSecretOf(name));
  }
  return {
    secrets,
    /** The calls each server received since the last take, by the tool name the gate knows (`lab_crash`). */
    takeCalls() {
      const counts = {};
      for (const name of Object.keys(servers)) {
        const lines = existsSync(logOf(name))
          ? readFileSync(logOf(name), 'utf8').split('\n').filter(Boolean)
          : [];
        for (const tool of lines.slice(taken.get(name) ?? 0))
          counts[`${name}_${tool}`] = (counts[`${name}_${tool}`] ?? 0) + 1;
        taken.set(name, lines.length);
      }
      return counts;
    },
    close() {
      rmSync(logs, { recursive: true, force: true });
    },
  };
}

const secretKey = Buffer.alloc(32, 7).toString('base64');

/**
 * Memory for a scenario: a store in a fresh directory, the memory server over HTTP, its MCP agent in
 * `orchestrator` (register before `start`, then `open` after). `state(up|down)` moves the server.
 */
export async function createEvalMemory(orchestrator, subject, initial = 'up') {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-eval-memory-'));
  const store = openStore({ home, secretKey, env: {} });
  let server = await serveMemoryHttp({ memory: store.memory, subject });
  const { port, url } = server;
  if (initial === 'down') {
    await server.close();
    server = undefined;
  }
  orchestrator.register(
    createMcpAgent(
      {
        name: 'memory',
        transport: 'streamable-http',
        url,
        headers: {},
        timeout: 10_000,
        autoStart: true,
        // The memory server is the deployment's own: its writes append to the user's own memory.
        trust: true,
      },
      agentOptions,
    ),
  );
  let memory;
  return {
    /** The `memory` option of runTurn, once the orchestrator has started. */
    async open() {
      const ids =
        initial === 'down'
          ? { vaultId: 'vault-unreachable', memoryId: 'memory-unreachable' }
          : await ensureMemory({ orchestrator, subject });
      const agent = createMemoryAgent({
        model: createMemoryModel(),
        orchestrator,
        subject,
        ...ids,
        checkpointer: store,
        prompts: builtInPromptLoader,
      });
      memory = turnMemory({ orchestrator, subject, ...ids, agent, checkpointer: store });
      return memory;
    },
    /** Ends a thread's session: the final flush that writes the context the next session reads. */
    async endSession(threadId) {
      await memory.invoker(threadId).endSession();
    },
    /** Takes the memory server down or brings it back, and reconnects the client to find out. */
    async state(wanted) {
      if (wanted === 'down' && server) {
        await server.close();
        server = undefined;
      } else if (wanted === 'up' && !server) {
        server = await serveMemoryHttp({ memory: store.memory, subject, port });
      } else return;
      await orchestrator.stopAgent('memory');
      await orchestrator.startAgent('memory');
    },
    async close() {
      await server?.close();
      store.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
