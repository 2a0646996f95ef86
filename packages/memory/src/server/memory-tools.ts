import type {
  MemoryContext,
  MemoryEntry,
  MemoryRecord,
  MemoryStore,
  MemoryVault,
} from '@patchbay/connector/ports';
import { PatchbayError, redactString } from '@patchbay/envelope';
import { z } from 'zod';

/**
 * The tool names of Mycelian's memory server, kept so agents written for either work with both, and
 * `forget_entry`, which deletes an entry for good (Mycelian's entries cannot be removed).
 */
export const memoryToolNames = [
  'create_vault',
  'list_vaults',
  'create_memory_in_vault',
  'list_memories',
  'get_memory',
  'add_entry',
  'list_entries',
  'get_entry',
  'put_context',
  'get_context',
  'await_consistency',
  'search_memories',
  'forget_entry',
] as const;

/** One of {@link memoryToolNames}. */
export type MemoryToolName = (typeof memoryToolNames)[number];

/** One tool of the memory server: its MCP description, arguments and handler over a {@link MemoryStore}. */
export interface MemoryToolDefinition {
  name: MemoryToolName;
  description: string;
  /** Zod shape of the arguments (snake_case, as on the wire). */
  input: z.ZodRawShape;
  /** True for tools that only read. */
  readOnly: boolean;
  /** True for a tool that deletes (`forget_entry`): the gate asks a person before it runs. */
  destructive?: true;
  /** Runs the tool for `subject`; the subject never comes from the arguments. */
  run(
    memory: MemoryStore | ForgettingMemoryStore,
    subject: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
}

/**
 * A {@link MemoryStore} that can delete an entry (`@patchbay/store`'s SQLite and Postgres stores can);
 * `forget_entry` needs one.
 */
export interface ForgettingMemoryStore extends MemoryStore {
  /** Deletes one entry for good; false when the subject has no such entry in that memory. */
  forgetEntry(subject: string, vaultId: string, memoryId: string, entryId: string): Promise<boolean>;
}

/**
 * The bounds every write is held to, in characters (`tags`: a count), the same as `@patchbay/store`'s.
 * An entry is a message, not a file; the context goes into every chat turn's `<memory>` block, so it
 * must stay condensed (8,000 characters, about 2,000 tokens).
 */
export const memoryLimits = {
  rawEntryChars: 16_000,
  summaryChars: 2_000,
  tags: 20,
  tagChars: 200,
  contextChars: 8_000,
} as const;

const count = (value: number) => value.toLocaleString('en-US');

function requireWithin(what: string, value: string, limit: number, advice: string): void {
  if (value.length > limit) {
    throw new PatchbayError(
      'invalid_arguments',
      `${what} is ${count(value.length)} characters; the limit is ${count(limit)}. ${advice}`,
    );
  }
}

/**
 * An entry as it may be stored: within the bounds (else `invalid_arguments` saying what to do), and
 * with every secret removed by the envelope's redaction, so a token said in a chat is never kept.
 */
function storableEntry(args: Record<string, unknown>) {
  const rawEntry = text(args.raw_entry);
  const summary = text(args.summary);
  requireWithin(
    'raw_entry',
    rawEntry,
    memoryLimits.rawEntryChars,
    'Store the part worth remembering, or split it into several entries.',
  );
  requireWithin('summary', summary, memoryLimits.summaryChars, 'Write a shorter recap.');
  const tags = Object.entries((args.tags as Record<string, string> | undefined) ?? {});
  if (tags.length > memoryLimits.tags) {
    throw new PatchbayError(
      'invalid_arguments',
      `An entry takes at most ${memoryLimits.tags} tags, not ${tags.length}.`,
    );
  }
  for (const [key, value] of tags) {
    requireWithin(`The tag key "${key.slice(0, 40)}"`, key, memoryLimits.tagChars, 'Shorten it.');
    requireWithin(
      `The value of tag "${key.slice(0, 40)}"`,
      String(value),
      memoryLimits.tagChars,
      'Shorten it.',
    );
  }
  return {
    rawEntry: redactString(rawEntry),
    summary: redactString(summary),
    tags:
      args.tags === undefined
        ? undefined
        : Object.fromEntries(tags.map(([key, value]) => [redactString(key), redactString(value)])),
  };
}

const canForget = (memory: MemoryStore): memory is ForgettingMemoryStore =>
  typeof (memory as Partial<ForgettingMemoryStore>).forgetEntry === 'function';

const id = (what: string) => z.string().min(1).describe(`Id of the ${what}.`);
const vaultId = id('vault (from create_vault or list_vaults)');
const memoryId = id('memory (from create_memory_in_vault or list_memories)');
const tagsSchema = z
  .record(z.string(), z.string())
  .optional()
  .describe('Optional metadata as string pairs, e.g. {"role": "user", "topic": "billing"}.');

const vaultWire = (vault: MemoryVault) => ({
  vault_id: vault.id,
  title: vault.title,
  ...(vault.description === undefined ? {} : { description: vault.description }),
  created_at: vault.createdAt,
});
const memoryWire = (record: MemoryRecord) => ({
  memory_id: record.id,
  vault_id: record.vaultId,
  title: record.title,
  memory_type: record.memoryType,
  ...(record.description === undefined ? {} : { description: record.description }),
  created_at: record.createdAt,
});
/** An entry as tools return it; exported so the agent formats what it loads the same way. */
export const entryWire = (entry: MemoryEntry) => ({
  entry_id: entry.id,
  vault_id: entry.vaultId,
  memory_id: entry.memoryId,
  raw_entry: entry.rawEntry,
  summary: entry.summary,
  tags: entry.tags,
  created_at: entry.createdAt,
});
const contextWire = (context: MemoryContext) => ({
  vault_id: context.vaultId,
  memory_id: context.memoryId,
  version: context.version,
  content: context.content,
  created_at: context.createdAt,
});

const text = (value: unknown) => value as string;
const optionalText = (value: unknown) => (value === undefined ? undefined : (value as string));

/** Whether the memory exists for the subject; `not_found` otherwise. */
async function requireMemory(memory: MemoryStore, subject: string, vault: string, record: string) {
  const found = await memory.getMemory(subject, vault, record);
  if (!found) throw new PatchbayError('not_found', `No memory "${record}" in vault "${vault}".`);
  return found;
}

/** Every tool the memory server serves, in {@link memoryToolNames} order. */
export const memoryTools: readonly MemoryToolDefinition[] = [
  {
    name: 'create_vault',
    description: 'Create a vault, a named group of memories. Returns its vault_id.',
    input: {
      title: z.string().min(1).max(50).describe('Vault title, up to 50 characters, e.g. "assistant".'),
      description: z.string().optional().describe('Optional description of what the vault holds.'),
    },
    readOnly: false,
    async run(memory, subject, args) {
      const vault = await memory.createVault(subject, {
        title: text(args.title),
        description: optionalText(args.description),
      });
      return vaultWire(vault);
    },
  },
  {
    name: 'list_vaults',
    description: 'List your vaults (vault_id and title).',
    input: {},
    readOnly: true,
    async run(memory, subject) {
      return { vaults: (await memory.listVaults(subject)).map(vaultWire) };
    },
  },
  {
    name: 'create_memory_in_vault',
    description:
      'Create a memory inside a vault. Only when the person asked for a new memory. Returns its memory_id.',
    input: {
      vault_id: vaultId,
      title: z.string().min(1).max(50).describe('Memory title, up to 50 characters, e.g. "alice-chat".'),
      memory_type: z.string().min(1).describe('Kind of memory, e.g. CHAT, NOTES or PROJECT.'),
      description: z.string().optional().describe('Optional description of the memory.'),
    },
    readOnly: false,
    async run(memory, subject, args) {
      const record = await memory.createMemory(subject, text(args.vault_id), {
        title: text(args.title),
        memoryType: text(args.memory_type),
        description: optionalText(args.description),
      });
      return memoryWire(record);
    },
  },
  {
    name: 'list_memories',
    description: 'List the memories in a vault (memory_id and title).',
    input: { vault_id: vaultId },
    readOnly: true,
    async run(memory, subject, args) {
      return { memories: (await memory.listMemories(subject, text(args.vault_id))).map(memoryWire) };
    },
  },
  {
    name: 'get_memory',
    description: 'Get one memory of a vault by id.',
    input: { vault_id: vaultId, memory_id: memoryId },
    readOnly: true,
    async run(memory, subject, args) {
      return memoryWire(await requireMemory(memory, subject, text(args.vault_id), text(args.memory_id)));
    },
  },
  {
    name: 'add_entry',
    description:
      'Append one entry to a memory: raw_entry is the full text as said, summary a short recap of it. Entries are never changed afterwards; forget_entry deletes one.',
    input: {
      vault_id: vaultId,
      memory_id: memoryId,
      raw_entry: z
        .string()
        .min(1)
        .describe(
          'The full text of the message or note, up to 16,000 characters. Secrets (tokens, keys, passwords) are removed before it is stored.',
        ),
      summary: z
        .string()
        .min(1)
        .describe('A short recap of the entry that stands on its own, up to 2,000 characters.'),
      tags: tagsSchema,
    },
    readOnly: false,
    async run(memory, subject, args) {
      const entry = await memory.addEntry(
        subject,
        text(args.vault_id),
        text(args.memory_id),
        storableEntry(args),
      );
      return { status: 'stored', entry_id: entry.id, created_at: entry.createdAt };
    },
  },
  {
    name: 'list_entries',
    description: 'List the entries of a memory, newest first.',
    input: {
      vault_id: vaultId,
      memory_id: memoryId,
      limit: z.number().int().min(1).max(100).optional().describe('How many entries, 1 to 100 (default 25).'),
      before: z.string().optional().describe('Only entries created before this ISO time.'),
      after: z.string().optional().describe('Only entries created after this ISO time.'),
    },
    readOnly: true,
    async run(memory, subject, args) {
      const entries = await memory.listEntries(subject, text(args.vault_id), text(args.memory_id), {
        limit: args.limit as number | undefined,
        before: optionalText(args.before),
        after: optionalText(args.after),
      });
      return { entries: entries.map(entryWire), count: entries.length };
    },
  },
  {
    name: 'get_entry',
    description: 'Get one entry of a memory by id.',
    input: { vault_id: vaultId, memory_id: memoryId, entry_id: id('entry') },
    readOnly: true,
    async run(memory, subject, args) {
      const entry = await memory.getEntry(
        subject,
        text(args.vault_id),
        text(args.memory_id),
        text(args.entry_id),
      );
      if (!entry) throw new PatchbayError('not_found', `No entry "${text(args.entry_id)}".`);
      return entryWire(entry);
    },
  },
  {
    name: 'put_context',
    description:
      'Save the context document of a memory: what a later session must know, condensed (at most 8,000 characters). Replaces the current context; earlier versions are kept.',
    input: {
      vault_id: vaultId,
      memory_id: memoryId,
      content: z
        .string()
        .min(1)
        .describe(
          'The whole context document, at most 8,000 characters: condense what earlier versions said rather than appending to them.',
        ),
    },
    readOnly: false,
    async run(memory, subject, args) {
      const content = text(args.content);
      requireWithin(
        'The context',
        content,
        memoryLimits.contextChars,
        'Condense it: keep what a later session must know and drop the rest, instead of appending to it.',
      );
      const context = await memory.putContext(
        subject,
        text(args.vault_id),
        text(args.memory_id),
        redactString(content),
      );
      return { status: 'stored', version: context.version, created_at: context.createdAt };
    },
  },
  {
    name: 'get_context',
    description: 'Get the current context document of a memory (null when none was saved yet).',
    input: { vault_id: vaultId, memory_id: memoryId },
    readOnly: true,
    async run(memory, subject, args) {
      const context = await memory.getContext(subject, text(args.vault_id), text(args.memory_id));
      return { context: context ? contextWire(context) : null };
    },
  },
  {
    name: 'await_consistency',
    description: 'Wait until every write to the memory made so far is readable.',
    input: { memory_id: memoryId },
    readOnly: true,
    async run(memory, subject, args) {
      await memory.awaitConsistency(subject, text(args.memory_id));
      return { status: 'consistent' };
    },
  },
  {
    name: 'search_memories',
    description:
      'Full-text search of the entries of a memory, best match first, with the current context of that memory.',
    input: {
      memory_id: memoryId,
      query: z.string().min(1).describe('Words to look for.'),
      top_k: z.number().int().min(1).max(100).optional().describe('How many hits, 1 to 100 (default 10).'),
      vault_id: vaultId.optional(),
    },
    readOnly: true,
    async run(memory, subject, args) {
      const memoryIdValue = text(args.memory_id);
      const hits = await memory.searchEntries(subject, {
        memoryId: memoryIdValue,
        query: text(args.query),
        topK: args.top_k as number | undefined,
      });
      const vault = optionalText(args.vault_id) ?? hits[0]?.entry.vaultId;
      const latest = vault
        ? await memory.getContext(subject, vault, memoryIdValue).catch(() => undefined)
        : undefined;
      return {
        entries: hits.map((hit) => ({ ...entryWire(hit.entry), score: hit.score })),
        count: hits.length,
        latest_context: latest?.content ?? null,
        context_timestamp: latest?.createdAt ?? null,
      };
    },
  },
  {
    name: 'forget_entry',
    description:
      'Delete one entry of a memory for good, e.g. when the person asks to forget something they said. It cannot be undone.',
    input: { vault_id: vaultId, memory_id: memoryId, entry_id: id('entry to forget') },
    readOnly: false,
    destructive: true,
    async run(memory, subject, args) {
      if (!canForget(memory)) {
        throw new PatchbayError('conflict', 'This memory store cannot delete entries.');
      }
      const entryId = text(args.entry_id);
      const forgotten = await memory.forgetEntry(subject, text(args.vault_id), text(args.memory_id), entryId);
      if (!forgotten) throw new PatchbayError('not_found', `No entry "${entryId}".`);
      return { status: 'forgotten', entry_id: entryId };
    },
  },
];
