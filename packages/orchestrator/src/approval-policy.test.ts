import { describe, expect, it } from 'vitest';
import type { AgentTool } from './agent.js';
import { approvalModeOf, requiresApproval } from './approval-policy.js';

function tool(name: string, effect: AgentTool['effect'], extra: Partial<AgentTool> = {}): AgentTool {
  return { name, description: name, inputJsonSchema: {}, effect, requiredScopes: [], requires: [], ...extra };
}

const trusted = { trusted: true };
const untrusted = { trusted: false };
const write = tool('acme_create_ticket', 'write', { connectorId: 'acme' });
const read = tool('acme_get_ticket', 'read', { connectorId: 'acme' });
const destroy = tool('acme_delete_ticket', 'destructive', { connectorId: 'acme' });

describe('requiresApproval', () => {
  it('asks for destructive tools and untrusted agents only, by default', () => {
    expect(requiresApproval(write, trusted)).toBe(false);
    expect(requiresApproval(read, trusted)).toBe(false);
    expect(requiresApproval(destroy, trusted)).toBe(true);
    expect(requiresApproval(tool('mcp_write', 'write'), untrusted)).toBe(true);
  });

  it("asks for every write under 'writes', never for reads", () => {
    const policy = { default: 'writes' as const };
    expect(requiresApproval(write, trusted, policy)).toBe(true);
    expect(requiresApproval(tool('fn_notify', 'write'), trusted, policy)).toBe(true);
    expect(requiresApproval(read, trusted, policy)).toBe(false);
    // A read effect that an MCP server's hints call not read-only counts as a write.
    expect(
      requiresApproval(tool('mcp_x', 'read', { annotations: { readOnlyHint: false } }), trusted, policy),
    ).toBe(true);
  });

  it('never lets a mode loosen the floor: destructive and untrusted still need approval', () => {
    const loose = { default: 'destructive' as const, tools: { acme_delete_ticket: 'destructive' as const } };
    expect(requiresApproval(destroy, trusted, loose)).toBe(true);
    expect(requiresApproval(tool('mcp_write', 'write'), untrusted, loose)).toBe(true);
  });

  it('resolves the mode tool first, then connector, then deployment', () => {
    const policy = {
      default: 'writes' as const,
      connectors: { acme: 'destructive' as const },
      tools: { acme_create_ticket: 'writes' as const },
    };
    expect(approvalModeOf(write, policy)).toBe('writes');
    expect(approvalModeOf(tool('acme_update_ticket', 'write', { connectorId: 'acme' }), policy)).toBe(
      'destructive',
    );
    expect(approvalModeOf(tool('fn_notify', 'write'), policy)).toBe('writes');
    expect(approvalModeOf(write, undefined)).toBe('destructive');
  });
});
