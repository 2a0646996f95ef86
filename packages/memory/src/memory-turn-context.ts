import type { Orchestrator } from '@patchbay/orchestrator';

/** Settings of {@link readMemoryForTurn}. */
export interface MemoryForTurnOptions {
  orchestrator: Pick<Orchestrator, 'execute'>;
  subject: string;
  vaultId: string;
  memoryId: string;
  /** Prefix the memory server's tools carry in the orchestrator, if any. */
  toolPrefix?: string;
  signal?: AbortSignal;
}

/**
 * What a turn needs of memory before it calls the model: the `memory` entry of the connector status
 * block and the previous session's context. A memory server that is down, or answers with an error,
 * makes memory `unavailable` (the turn still answers, without memory), never a failed turn.
 */
export type MemoryForTurn =
  | { status: 'connected'; context: string | undefined; contextVersion: number | undefined }
  | { status: 'unavailable'; reason: string };

/** Reads the current context through the gate (`get_context`) and reports whether memory is usable. */
export async function readMemoryForTurn(options: MemoryForTurnOptions): Promise<MemoryForTurn> {
  const envelope = await options.orchestrator.execute(
    `${options.toolPrefix ?? ''}get_context`,
    { vault_id: options.vaultId, memory_id: options.memoryId },
    { subject: options.subject, ...(options.signal ? { signal: options.signal } : {}) },
  );
  if (!envelope.ok) return { status: 'unavailable', reason: envelope.user_message };
  const context = (envelope.data as { context?: { content?: string; version?: number } | null } | undefined)
    ?.context;
  return { status: 'connected', context: context?.content, contextVersion: context?.version };
}
