import { PatchbayError } from '@patchbay/envelope';
import type { Agent, AgentTool } from './agent.js';
import { argsHash } from './args-hash.js';

/**
 * Which calls need a person's approval. `destructive` (the default): destructive tools and tools of
 * untrusted agents. `writes` (seed 003's policy): those, plus every call that changes something in
 * an external service — any tool that is not read-only (`github_create_issue`, `slack_send_message`).
 */
export type ApprovalMode = 'destructive' | 'writes';

/**
 * The orchestrator's approval policy: a mode for the deployment, overridden per connector id, then
 * per tool name (the most specific wins). No mode lets a destructive tool or an untrusted agent's
 * non-read-only tool run unapproved: the modes only decide whether plain writes need approval too.
 */
export interface ApprovalPolicy {
  /** The deployment's mode. Default `destructive`. */
  default?: ApprovalMode;
  /** Mode per connector id (the tool's `connectorId`), e.g. `{ slack: 'writes' }`. */
  connectors?: Readonly<Record<string, ApprovalMode>>;
  /** Mode per tool name, e.g. `{ github_create_issue: 'writes' }`. */
  tools?: Readonly<Record<string, ApprovalMode>>;
}

const approvalModes: readonly string[] = ['destructive', 'writes'] satisfies ApprovalMode[];

/** Throws `invalid_definition` naming the first entry that is not an {@link ApprovalMode}. */
export function checkApprovalPolicy(policy: ApprovalPolicy | undefined): void {
  if (policy === undefined) return;
  const entries: [string, unknown][] = [
    ['approvals.default', policy.default ?? 'destructive'],
    ...Object.entries(policy.connectors ?? {}).map(([id, mode]): [string, unknown] => [
      `approvals.connectors.${id}`,
      mode,
    ]),
    ...Object.entries(policy.tools ?? {}).map(([name, mode]): [string, unknown] => [
      `approvals.tools.${name}`,
      mode,
    ]),
  ];
  for (const [field, mode] of entries) {
    if (typeof mode !== 'string' || !approvalModes.includes(mode)) {
      throw new PatchbayError('invalid_definition', `${field}: must be "destructive" or "writes"`);
    }
  }
}

/** The mode that applies to a tool: its own entry, else its connector's, else the deployment's. */
export function approvalModeOf(tool: AgentTool, policy: ApprovalPolicy | undefined): ApprovalMode {
  const own = policy?.tools?.[tool.name];
  if (own !== undefined) return own;
  const connector = tool.connectorId === undefined ? undefined : policy?.connectors?.[tool.connectorId];
  return connector ?? policy?.default ?? 'destructive';
}

/**
 * Whether a call of the tool needs a person's approval: destructive tools always; tools of
 * untrusted agents unless they declare `readOnlyHint`; under the `writes` mode, every tool that is
 * not read-only. A tool's own `trusted` overrides its agent's.
 */
export function requiresApproval(
  tool: AgentTool,
  agent: Pick<Agent, 'trusted'> & { requiresApproval?: boolean | undefined },
  policy?: ApprovalPolicy,
): boolean {
  // The agent's manifest asks a person for every call (seed 003's `requiresApproval`), reads included.
  if (agent.requiresApproval === true) return true;
  if (tool.effect === 'destructive' || tool.annotations?.destructiveHint === true) return true;
  // Read-only: declared so, or a `read` effect no hint contradicts.
  const hint = tool.annotations?.readOnlyHint;
  const readOnly = hint === true || (tool.effect === 'read' && hint !== false);
  if (approvalModeOf(tool, policy) === 'writes' && !readOnly) return true;
  const trusted = tool.trusted ?? agent.trusted ?? false;
  return !trusted && tool.annotations?.readOnlyHint !== true;
}

/** The pinned identity of a tool definition: what a person approved when approving a call of it. */
export function definitionHash(tool: AgentTool): string {
  return argsHash({
    description: tool.description,
    input_schema: tool.inputJsonSchema,
    annotations: tool.annotations ?? {},
  });
}
