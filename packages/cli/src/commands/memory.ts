import type { MemoryRecord, MemoryStore } from '@patchbay/connector/ports';
import type { ForgettingMemoryStore } from '@patchbay/store';
import { CliError, usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import type { CliRuntime } from '../runtime.js';
import { formatTable } from '../table.js';
import { serveMemory } from './memory-serve.js';

const actions = ['serve', 'list', 'show', 'search', 'forget'] as const;

function oneLine(text: string, length = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

function memoryOf(runtime: CliRuntime): ForgettingMemoryStore {
  const memory = runtime.store().memory;
  if (!memory) throw new CliError('store_error', 'This store has no memory support.');
  return memory;
}

/** Finds one of the user's memories by id, whichever vault it is in. */
async function findMemory(memory: MemoryStore, subject: string, memoryId: string): Promise<MemoryRecord> {
  for (const vault of await memory.listVaults(subject)) {
    const found = await memory.getMemory(subject, vault.id, memoryId);
    if (found) return found;
  }
  throw new CliError(
    'not_found',
    `No memory "${memoryId}" for this user. List them with \`patchbay memory list\`.`,
  );
}

async function list(runtime: CliRuntime, memory: MemoryStore) {
  const { subject } = runtime.settings;
  const rows = [];
  for (const vault of await memory.listVaults(subject)) {
    for (const record of await memory.listMemories(subject, vault.id)) {
      const context = await memory.getContext(subject, vault.id, record.id);
      rows.push({ vault, record, contextVersion: context?.version ?? 0 });
    }
  }
  if (runtime.settings.json) {
    runtime.printJson(
      rows.map(({ vault, record, contextVersion }) => ({
        vault_id: vault.id,
        vault: vault.title,
        memory_id: record.id,
        memory: record.title,
        memory_type: record.memoryType,
        context_version: contextVersion,
        created_at: record.createdAt,
      })),
    );
    return;
  }
  if (rows.length === 0) {
    runtime.print(`No memories for ${subject}.`);
    return;
  }
  runtime.print(
    formatTable(
      ['MEMORY ID', 'VAULT', 'MEMORY', 'TYPE', 'CONTEXT'],
      rows.map(({ vault, record, contextVersion }) => [
        record.id,
        vault.title,
        record.title,
        record.memoryType,
        contextVersion ? `v${contextVersion}` : '-',
      ]),
    ),
  );
}

async function show(runtime: CliRuntime, memory: MemoryStore, memoryId: string, limit: number) {
  const { subject } = runtime.settings;
  const record = await findMemory(memory, subject, memoryId);
  const context = await memory.getContext(subject, record.vaultId, record.id);
  const entries = await memory.listEntries(subject, record.vaultId, record.id, { limit });
  if (runtime.settings.json) {
    runtime.printJson({
      memory_id: record.id,
      vault_id: record.vaultId,
      title: record.title,
      context: context
        ? { version: context.version, content: context.content, created_at: context.createdAt }
        : null,
      entries: entries.map((entry) => ({
        entry_id: entry.id,
        summary: entry.summary,
        raw_entry: entry.rawEntry,
        tags: entry.tags,
        created_at: entry.createdAt,
      })),
    });
    return;
  }
  runtime.print(`${record.title} (${record.memoryType})`);
  runtime.print(
    context
      ? `\nContext v${context.version} (${context.createdAt}):\n${context.content}`
      : '\nNo context yet.',
  );
  runtime.print(`\nLatest ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}:`);
  if (entries.length > 0) {
    runtime.print(
      formatTable(
        ['CREATED', 'ROLE', 'SUMMARY'],
        entries.map((entry) => [entry.createdAt, entry.tags.role ?? '-', oneLine(entry.summary)]),
      ),
    );
  }
}

async function search(
  runtime: CliRuntime,
  memory: MemoryStore,
  memoryId: string,
  query: string,
  limit: number,
) {
  const { subject } = runtime.settings;
  const record = await findMemory(memory, subject, memoryId);
  const hits = await memory.searchEntries(subject, { memoryId: record.id, query, topK: limit });
  if (runtime.settings.json) {
    runtime.printJson(
      hits.map((hit) => ({
        entry_id: hit.entry.id,
        score: hit.score,
        summary: hit.entry.summary,
        raw_entry: hit.entry.rawEntry,
        created_at: hit.entry.createdAt,
      })),
    );
    return;
  }
  if (hits.length === 0) {
    runtime.print(`No entries match "${query}".`);
    return;
  }
  runtime.print(
    formatTable(
      ['SCORE', 'CREATED', 'SUMMARY'],
      hits.map((hit) => [hit.score.toFixed(2), hit.entry.createdAt, oneLine(hit.entry.summary)]),
    ),
  );
}

/**
 * Deletes one entry of a memory, or with `--all` the whole memory (entries, every context version
 * and the memory itself): what a person does after pasting a secret the token shapes missed.
 */
async function forget(
  runtime: CliRuntime,
  memory: ForgettingMemoryStore,
  memoryId: string,
  entryId: string | undefined,
  all: boolean,
) {
  const { subject } = runtime.settings;
  const record = await findMemory(memory, subject, memoryId);
  if (all) {
    const removed = await memory.forgetMemory(subject, record.vaultId, record.id);
    if (runtime.settings.json) {
      runtime.printJson({ memory_id: record.id, forgotten: true, ...removed });
    } else {
      runtime.print(
        `Forgot memory ${record.title}: ${removed.entries} entr${removed.entries === 1 ? 'y' : 'ies'} and ${removed.contexts} context version${removed.contexts === 1 ? '' : 's'}.`,
      );
    }
    return;
  }
  if (entryId === undefined) {
    throw usageError('patchbay memory forget needs an entry id (see `patchbay memory show`), or --all.');
  }
  if (!(await memory.forgetEntry(subject, record.vaultId, record.id, entryId))) {
    throw new CliError('not_found', `No entry "${entryId}" in memory ${record.title}.`);
  }
  if (runtime.settings.json) runtime.printJson({ memory_id: record.id, entry_id: entryId, forgotten: true });
  else runtime.print(`Forgot entry ${entryId}.`);
}

/** `patchbay memory`: serve, list, show, search and forget the user's long-term memory. */
export const memoryCommand: Command = {
  name: 'memory',
  usage:
    'serve [--http [--port N]] | list | show <memory-id> [--limit N] | search <memory-id> <query> [--limit N] | forget <memory-id> <entry-id> | forget <memory-id> --all',
  summary:
    'Serve the user’s memory over MCP (stdio; --http for streamable HTTP), or list, show, search and forget it',
  examples: [
    'patchbay memory serve                      # stdio, for an MCP host',
    'patchbay memory serve --http --port 3200   # http://127.0.0.1:3200/mcp',
    'patchbay memory list --json',
    'patchbay memory show 5f0c…',
    'patchbay memory search 5f0c… "cold start"',
    'patchbay memory forget 5f0c… 9a1e…              # delete one entry for good',
    'patchbay memory forget 5f0c… --all              # the memory, its entries and contexts',
  ],
  options: {
    http: { type: 'boolean', default: false },
    port: { type: 'string' },
    host: { type: 'string' },
    limit: { type: 'string' },
    all: { type: 'boolean', default: false },
  },
  positionals: { required: ['action'], optional: ['memory-id', 'query'] },
  async run(runtime, values, positionals) {
    const [action, memoryId, query] = positionals as [string, string | undefined, string | undefined];
    if (!(actions as readonly string[]).includes(action)) {
      throw usageError(`Unknown memory action "${action}": use ${actions.join(', ')}.`);
    }
    const limitText = values.limit as string | undefined;
    const limit = limitText === undefined ? 10 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw usageError(`--limit must be a whole number from 1 to 100, not "${limitText}".`);
    }
    const memory = memoryOf(runtime);
    if (action === 'serve') return serveMemory(runtime, memory, values);
    if (action === 'list') await list(runtime, memory);
    else if (memoryId === undefined) throw usageError(`patchbay memory ${action} needs a memory id.`);
    else if (action === 'show') await show(runtime, memory, memoryId, limit);
    else if (action === 'forget') await forget(runtime, memory, memoryId, query, values.all === true);
    else if (query === undefined || query.trim() === '')
      throw usageError('patchbay memory search needs a query.');
    else await search(runtime, memory, memoryId, query, limit);
    return exitCodes.ok;
  },
};
