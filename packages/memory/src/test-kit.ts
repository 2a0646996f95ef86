// Test helpers only (not exported from the package): a real SQLite store, the memory server
// in-process behind a real orchestrator, and a count of every store call the server made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { MemoryStore } from '@patchbay/connector/ports';
import { type ApprovalPolicy, createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { openStore, type PatchbayStore } from '@patchbay/store';
import type { ScriptedReply } from '@patchbay/turn/testing';
import { ensureMemory } from './agent/ensure-memory.js';
import { type MemoryServerAgent, memoryServerAgent } from './server/in-process-agent.js';

const secretKey = Buffer.alloc(32, 9).toString('base64');

/** A store call as the server made it: method name and arguments. */
export interface StoreCall {
  method: string;
  args: unknown[];
}

/** Wraps a memory store so every call the server makes is recorded. */
export function countingMemory(memory: MemoryStore): { memory: MemoryStore; calls: StoreCall[] } {
  const calls: StoreCall[] = [];
  const counted = new Proxy(memory, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ method: String(property), args });
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { memory: counted, calls };
}

/** Everything a memory agent test runs on. */
export interface MemoryWorld {
  home: string;
  store: PatchbayStore;
  orchestrator: Orchestrator;
  server: MemoryServerAgent;
  calls: StoreCall[];
  /** Store methods called so far, in order. */
  methods(): string[];
  ids: { vaultId: string; memoryId: string };
  close(): Promise<void>;
}

/** Opens a store (in `home`, fresh when absent), serves its memory in-process, and ensures alice's memory. */
export async function openMemoryWorld(
  home = mkdtempSync(join(tmpdir(), 'patchbay-memory-')),
  settings: { approvals?: ApprovalPolicy } = {},
): Promise<MemoryWorld> {
  const store = openStore({ home, secretKey, env: {} });
  const { memory, calls } = countingMemory(store.memory!);
  const orchestrator = createOrchestrator({
    statusSource: store,
    ...(settings.approvals ? { approvals: settings.approvals } : {}),
  });
  const server = memoryServerAgent({ memory });
  orchestrator.register(server);
  await orchestrator.start();
  const ids = await ensureMemory({ orchestrator, subject: 'alice' });
  calls.length = 0;
  return {
    home,
    store,
    orchestrator,
    server,
    calls,
    ids,
    methods: () => calls.map((call) => call.method),
    async close() {
      await orchestrator.stop();
      store.close();
    },
  };
}

/** Removes a world's home directory. */
export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/** The tool a memory-agent model call offers (the agent offers exactly one). */
export function offeredTool(call: LanguageModelV4CallOptions): string | undefined {
  return call.tools?.[0]?.name;
}

/** The system prompt of a memory-agent model call. */
export function systemPrompt(call: LanguageModelV4CallOptions): string {
  const first = call.prompt[0];
  return first?.role === 'system' ? first.content : '';
}

/** A well-behaved memory model: summarises the message it is shown, writes a context when asked. */
export function diligentModel(call: LanguageModelV4CallOptions): ScriptedReply {
  const system = systemPrompt(call);
  if (offeredTool(call) === 'put_context') {
    return {
      toolCalls: [{ toolName: 'put_context', input: { content: `context after ${system.length} chars` } }],
    };
  }
  const said = /<message_to_record>\n\[(\w+)\] ([^\n]*)/.exec(system);
  return {
    toolCalls: [
      {
        toolName: 'add_entry',
        input: { summary: `The ${said?.[1]} said: ${said?.[2]}`, tags: { topic: 'chat' } },
      },
    ],
  };
}
