import { type Envelope, PatchbayError } from '@patchbay/envelope';
import { executeOwnCall, type MemoryGate } from './own-writes.js';

/** Settings of {@link ensureMemory}. */
export interface EnsureMemoryOptions {
  orchestrator: MemoryGate;
  subject: string;
  /** Vault title; default `patchbay`. */
  vault?: string;
  /** Memory title, e.g. one per assistant; default `conversations`. */
  memory?: string;
  /** Memory type of a memory created here; default `CHAT`. */
  memoryType?: string;
  /** Prefix the memory server's tools carry in the orchestrator, if any. */
  toolPrefix?: string;
  /** Approve its own `create_vault` / `create_memory_in_vault` under a `writes` policy (default true; see `createMemoryAgent`). */
  approveOwnWrites?: boolean;
}

function listed(envelope: Envelope, field: string, what: string): Record<string, string>[] {
  if (!envelope.ok)
    throw new PatchbayError(envelope.error_type, `Could not list ${what}: ${envelope.user_message}`);
  const items = (envelope.data as Record<string, unknown> | undefined)?.[field];
  return Array.isArray(items) ? (items as Record<string, string>[]) : [];
}

function created(envelope: Envelope, field: string, what: string): string {
  if (!envelope.ok)
    throw new PatchbayError(envelope.error_type, `Could not create the ${what}: ${envelope.user_message}`);
  return String((envelope.data as Record<string, unknown>)[field]);
}

/**
 * Finds the subject's vault and memory by title, creating what is missing, through the gate's
 * memory tools. Returns their ids for `createMemoryAgent`.
 */
export async function ensureMemory(
  options: EnsureMemoryOptions,
): Promise<{ vaultId: string; memoryId: string }> {
  const prefix = options.toolPrefix ?? '';
  const run = (tool: string, args: Record<string, unknown>) =>
    executeOwnCall(options.orchestrator, tool, args, {
      prefix,
      subject: options.subject,
      approveOwnWrites: options.approveOwnWrites ?? true,
    });
  const vaultTitle = options.vault ?? 'patchbay';
  const memoryTitle = options.memory ?? 'conversations';
  const vaults = listed(await run('list_vaults', {}), 'vaults', 'vaults');
  const vaultId =
    vaults.find((vault) => vault.title === vaultTitle)?.vault_id ??
    created(await run('create_vault', { title: vaultTitle }), 'vault_id', 'vault');
  const memories = listed(await run('list_memories', { vault_id: vaultId }), 'memories', 'memories');
  const memoryId =
    memories.find((memory) => memory.title === memoryTitle)?.memory_id ??
    created(
      await run('create_memory_in_vault', {
        vault_id: vaultId,
        title: memoryTitle,
        memory_type: options.memoryType ?? 'CHAT',
      }),
      'memory_id',
      'memory',
    );
  return { vaultId, memoryId };
}
