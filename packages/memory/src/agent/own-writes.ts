import { type Envelope, failure } from '@patchbay/envelope';
import type { Orchestrator } from '@patchbay/orchestrator';

/** The gate as the memory agent uses it: `execute`, and `approveAndExecute` to run its own writes. */
export type MemoryGate = Pick<Orchestrator, 'execute'> & Partial<Pick<Orchestrator, 'approveAndExecute'>>;

/** Who the audit and the proposal record as the approver of the memory agent's own writes. */
export const memoryAgentApprover = 'patchbay-memory-agent';

/**
 * The writes the memory agent makes itself. Each appends to the subject's own memory with arguments
 * the agent fixes (vault, memory, raw text, role); `forget_entry`, the one delete, is not among them.
 */
export const ownWriteTools: ReadonlySet<string> = new Set([
  'create_vault',
  'create_memory_in_vault',
  'add_entry',
  'put_context',
]);

/**
 * Runs one of the memory agent's own calls through the gate. When the deployment's approval policy
 * (`writes`, seed 003's "any external API call needs approval") holds one of its own writes for a
 * person, the agent approves that exact proposal itself — the one its call just made, bound by the
 * gate's MAC to these arguments and this subject — and runs it once: memory is Patchbay's own store
 * of what this subject said, not an external API, and these writes are fixed by construction. A
 * proposal anyone else made (a chat model, an MCP host) is never touched. With `approveOwnWrites`
 * false the call stays pending for a person, and the envelope says so.
 */
export async function executeOwnCall(
  gate: MemoryGate,
  tool: string,
  args: Record<string, unknown>,
  options: { prefix: string; subject: string; signal?: AbortSignal | undefined; approveOwnWrites: boolean },
): Promise<Envelope> {
  const envelope = await gate.execute(`${options.prefix}${tool}`, args, {
    subject: options.subject,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (
    envelope.ok ||
    envelope.error_type !== 'approval_required' ||
    envelope.proposal_id === undefined ||
    !ownWriteTools.has(tool) ||
    !options.approveOwnWrites ||
    !gate.approveAndExecute
  ) {
    return envelope;
  }
  try {
    return await gate.approveAndExecute(
      envelope.proposal_id,
      { decidedBy: memoryAgentApprover },
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    // Decided meanwhile by someone else (not pending, gone): the write did not run from here.
    return failure('conflict', {
      userMessage: `The memory write ${tool} could not be approved: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}
