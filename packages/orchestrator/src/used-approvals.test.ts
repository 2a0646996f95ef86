import type { Proposal } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { createUsedApprovals } from './used-approvals.js';

function approved(id: string, approvalMac: string, decidedAt: string): Proposal {
  return {
    id,
    subject: 'user-1',
    tool: 'remote_delete',
    args: {},
    argsHash: 'hash',
    createdAt: '2030-01-01T09:00:00.000Z',
    state: 'approved',
    decidedAt,
    approvalMac,
  };
}

describe('createUsedApprovals', () => {
  it('knows a used approval by its MAC until the gate gives its proposal back', () => {
    const used = createUsedApprovals(() => new Date('2030-01-01T10:00:00.000Z'), 60_000);
    used.record(approved('prop_1', 'mac-1', '2030-01-01T10:00:00.000Z'));
    used.record(approved('prop_2', 'mac-2', '2030-01-01T10:00:00.000Z'));
    expect([used.has('mac-1'), used.has('mac-2'), used.has('mac-3'), used.has(undefined)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    used.forget('prop_1');
    expect([used.has('mac-1'), used.has('mac-2')]).toEqual([false, true]);
  });

  it('holds an approval only while it could still be valid, so memory stays one window deep', () => {
    const clock = { now: new Date('2030-01-01T10:00:00.000Z') };
    const used = createUsedApprovals(() => clock.now, 60_000);
    used.record(approved('prop_1', 'mac-1', '2030-01-01T10:00:00.000Z'));
    // Decided ahead of this clock (another process's): kept a window past the decision.
    used.record(approved('prop_2', 'mac-2', '2030-01-01T10:00:30.000Z'));
    clock.now = new Date('2030-01-01T10:01:20.000Z');
    used.record(approved('prop_3', 'mac-3', '2030-01-01T10:01:20.000Z'));
    expect([used.has('mac-1'), used.has('mac-2'), used.has('mac-3')]).toEqual([false, true, true]);
  });

  it('records nothing for a proposal without an approval MAC', () => {
    const used = createUsedApprovals(() => new Date('2030-01-01T10:00:00.000Z'), 60_000);
    const bare = approved('prop_1', 'mac-1', '2030-01-01T10:00:00.000Z');
    delete bare.approvalMac;
    used.record(bare);
    expect(used.has('mac-1')).toBe(false);
  });
});
