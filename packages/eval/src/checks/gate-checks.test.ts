import { describe, expect, it } from 'vitest';
import type { TurnRun } from '../run-types.js';
import { gateChecks } from './gate-checks.js';
import type { TurnView } from './turn-view.js';

const turn: TurnRun = {
  user: '(application code)',
  reply: '',
  trace: { calls: [], steps: [], exposedTools: [], outcome: 'replied', questions: [] },
  sideEffects: [],
  statusChanged: false,
  transcript: '[]',
  proposals: { pending: 1, expired: 2 },
  logs: [
    { level: 'info', message: 'approval required: proposal created', fields: { proposal_id: 'p1' } },
    { level: 'warn', message: 'proposal refused: MAC mismatch', fields: {} },
  ],
  gateRefusal: {
    error_code: 'invalid_definition',
    message: 'approvals.default: must be "destructive" or "writes"',
  },
};
const view = { turn } as TurnView;
const passes = (verdicts: Array<{ pass: boolean }>) => verdicts.map((verdict) => verdict.pass);

describe('the checks of `gate:` scenarios', () => {
  it('`proposals`: every state named has its count, a state left out has none', () => {
    expect(passes(gateChecks.proposals({ pending: 1, expired: 2 }, view))).toEqual([true, true]);
    expect(passes(gateChecks.proposals({ pending: 1 }, view))).toEqual([true, false]);
    expect(passes(gateChecks.proposals({}, { turn: { ...turn, proposals: undefined } } as TurnView))).toEqual(
      [false],
    );
  });

  it('`logged`: a line with the message, level and fields; `count` exactly', () => {
    expect(
      passes(
        gateChecks.logged(
          [
            { message: 'proposal created', level: 'info', fields: ['proposal_id'], count: 1 },
            { message: 'proposal created', fields: ['args_hash'] },
            { message: 'proposal refused', level: 'info' },
            { message: 'proposal', count: 1 },
          ],
          view,
        ),
      ),
    ).toEqual([true, false, false, false]);
  });

  it('`user_messages`: a call of the tool answered with a message containing the text', () => {
    const calls = [
      {
        step: 0,
        toolName: 'probe_delete',
        arguments: {},
        sent: true,
        envelope: {
          ok: false as const,
          error_type: 'conflict' as const,
          user_message: 'Proposal p1 was changed.',
          retryable: false,
        },
      },
    ];
    const withCalls = { turn, trace: { ...turn.trace, calls } } as TurnView;
    expect(
      passes(
        gateChecks.user_messages(
          [
            { tool: 'probe_delete', includes: 'was changed' },
            { tool: 'probe_delete', includes: 'expired' },
            { tool: 'probe_wipe', includes: 'was changed' },
          ],
          withCalls,
        ),
      ),
    ).toEqual([true, false, false]);
  });

  it('`not_logged` and `policy_refused`', () => {
    expect(passes(gateChecks.not_logged(['keeps the approval MAC', 'refused'], view))).toEqual([true, false]);
    expect(
      passes(
        gateChecks.policy_refused({ error_code: 'invalid_definition', message: 'approvals.default' }, view),
      ),
    ).toEqual([true]);
    expect(
      passes(
        gateChecks.policy_refused({ error_code: 'invalid_definition', message: 'x' }, {
          turn: { ...turn, gateRefusal: null },
        } as TurnView),
      ),
    ).toEqual([false]);
  });
});
