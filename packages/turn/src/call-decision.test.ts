import { type Envelope, type ErrorEnvelope, failure, success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import {
  type CallCondition,
  type CallRules,
  type CallState,
  callDecisionTable,
  decideCall,
} from './call-decision.js';
import type { TurnMemoryView } from './turn-memory.js';

const needsProject: ErrorEnvelope = failure('needs_input', {
  missing: [{ field: 'project', question: 'Which project should the issue go in?' }],
});
const earlier: Envelope = success({ key: 'WEB-1' });

/** A memory in which nothing has happened yet; each fixture overrides what its row reads. */
function memoryOf(overrides: Partial<TurnMemoryView> = {}): TurnMemoryView {
  return {
    attempt: 0,
    answerFor: () => undefined,
    sideEffectDone: () => false,
    openFailuresOf: () => [],
    resentInStep: () => 0,
    ...overrides,
  };
}

const rules: CallRules = { maxCallsPerStep: 16, requireUserGroundedInput: true, userText: 'File it in WEB' };

function callOf(overrides: Partial<CallState> = {}): CallState {
  return {
    toolName: 'tracker_create_issue',
    arguments: { ok: true, value: { project: 'WEB', title: 'Login' } },
    identity: 'tracker_create_issue\u0000{"project":"WEB","title":"Login"}',
    positionInStep: 0,
    cancelled: false,
    offered: true,
    ...overrides,
  };
}

/**
 * One situation per row in which that row is the first whose condition holds, with the action and
 * answer it must give. Several fixtures also satisfy later rows, so the order of the table is tested.
 */
const fixtures: Record<
  CallCondition,
  {
    call: CallState;
    memory: TurnMemoryView;
    expected: { kind: string; reason?: string; error_type?: string };
  }
> = {
  turn_cancelled: {
    // Also over the cap, a duplicate and a done side effect: cancellation wins.
    call: callOf({ cancelled: true, positionInStep: 40 }),
    memory: memoryOf({ answerFor: () => earlier, attempt: 1, sideEffectDone: () => true }),
    expected: { kind: 'skip', reason: 'cancelled', error_type: 'cancelled' },
  },
  over_call_cap: {
    call: callOf({ positionInStep: 16, arguments: { ok: false } }),
    memory: memoryOf(),
    expected: { kind: 'skip', reason: 'call_cap', error_type: 'rate_limited' },
  },
  not_offered: {
    // Also a duplicate, too deep and a done side effect: a tool the model was not offered never runs.
    call: callOf({ offered: false, arguments: { ok: false, tooDeep: true } }),
    memory: memoryOf({ answerFor: () => earlier, attempt: 1, sideEffectDone: () => true }),
    expected: { kind: 'skip', reason: 'not_offered', error_type: 'tool_unavailable' },
  },
  too_deep: {
    // Also not valid as JSON to send and a status refresh: depth is reported first.
    call: callOf({ arguments: { ok: false, tooDeep: true }, toolName: 'refresh_connector_status' }),
    memory: memoryOf(),
    expected: { kind: 'skip', reason: 'too_deep', error_type: 'invalid_arguments' },
  },
  invalid_json: {
    call: callOf({ arguments: { ok: false }, toolName: 'refresh_connector_status' }),
    memory: memoryOf(),
    expected: { kind: 'skip', reason: 'invalid_json', error_type: 'invalid_arguments' },
  },
  status_refresh: {
    // The meta-tool is never a duplicate: every refresh captures status again.
    call: callOf({ toolName: 'refresh_connector_status', arguments: { ok: true, value: {} } }),
    memory: memoryOf({ answerFor: () => earlier }),
    expected: { kind: 'refresh_status' },
  },
  already_answered: {
    call: callOf(),
    memory: memoryOf({ answerFor: () => earlier, attempt: 1, sideEffectDone: () => true }),
    expected: { kind: 'skip', reason: 'duplicate' },
  },
  side_effect_done: {
    call: callOf({ arguments: { ok: true, value: { project: 'MADEUP', title: 'Other' } } }),
    memory: memoryOf({
      attempt: 1,
      sideEffectDone: () => true,
      resentInStep: () => 1,
      openFailuresOf: () => [needsProject],
    }),
    expected: { kind: 'skip', reason: 'side_effect_done', error_type: 'conflict' },
  },
  ungrounded_input: {
    call: callOf({ arguments: { ok: true, value: { project: 'MADEUP', title: 'Login' } } }),
    memory: memoryOf({ attempt: 1, openFailuresOf: () => [needsProject] }),
    expected: { kind: 'skip', reason: 'ungrounded_input', error_type: 'needs_input' },
  },
  otherwise: {
    call: callOf({ positionInStep: 15 }),
    memory: memoryOf({ attempt: 1, openFailuresOf: () => [needsProject] }),
    expected: { kind: 'send' },
  },
};

describe('the call decision table', () => {
  it('has a fixture for every row, so every row is reachable', () => {
    expect(Object.keys(fixtures).sort()).toEqual(callDecisionTable.map((row) => row.when).sort());
    expect(new Set(callDecisionTable.map((row) => row.when)).size).toBe(callDecisionTable.length);
    expect(callDecisionTable.at(-1)).toEqual({ when: 'otherwise', action: 'send' });
  });

  it.each(callDecisionTable.map((row) => [row.when, row] as const))(
    'row %s decides its fixture with its action',
    (when, row) => {
      const { call, memory, expected } = fixtures[when];
      const action = decideCall(call, memory, rules);
      expect(action.row).toBe(row);
      expect(action.kind).toBe(expected.kind);
      if (action.kind === 'skip') {
        expect(action.reason).toBe(expected.reason);
        if (expected.error_type)
          expect(action.envelope).toMatchObject({ ok: false, error_type: expected.error_type });
      }
    },
  );

  it('answers a call of a cancelled turn `cancelled`, which the model must not retry (not `timeout`)', () => {
    const cancelled = decideCall(fixtures.turn_cancelled.call, fixtures.turn_cancelled.memory, rules);
    expect(cancelled).toMatchObject({
      kind: 'skip',
      envelope: {
        ok: false,
        error_type: 'cancelled',
        retryable: false,
        user_message: 'The turn was cancelled before this call ran.',
      },
    });
  });

  it('answers a duplicate with the earlier envelope itself and an ungrounded call with the open question', () => {
    const duplicate = decideCall(fixtures.already_answered.call, fixtures.already_answered.memory, rules);
    expect(duplicate).toMatchObject({ kind: 'skip', envelope: earlier });
    const ungrounded = decideCall(fixtures.ungrounded_input.call, fixtures.ungrounded_input.memory, rules);
    expect(ungrounded).toMatchObject({ kind: 'skip', envelope: needsProject });
  });

  it('checks every open question of the tool: a retry grounded for one but inventing another is not sent', () => {
    // Two calls of one tool left two questions: one lacked the project, the other the title.
    const needsTitle: ErrorEnvelope = failure('needs_input', {
      missing: [{ field: 'title', question: 'What should the issue be called?' }],
    });
    const open = memoryOf({ attempt: 1, openFailuresOf: () => [needsProject, needsTitle] });
    // The project is the user's (WEB), the title is made up: refused, with the title's question.
    const invented = callOf({ arguments: { ok: true, value: { project: 'WEB', title: 'Made up' } } });
    expect(decideCall(invented, open, rules)).toMatchObject({
      kind: 'skip',
      reason: 'ungrounded_input',
      envelope: needsTitle,
    });
    // Both values from the user: sent.
    const given = callOf({ arguments: { ok: true, value: { project: 'WEB', title: 'Login' } } });
    expect(decideCall(given, open, { ...rules, userText: 'File it in WEB, call it Login' })).toMatchObject({
      kind: 'send',
    });
  });

  it('checks the absent fields of invalid arguments too: a retry that fixes the wrong value but invents the absent one is not sent', () => {
    // One call had a wrong priority and no title: invalid_arguments, which also lists the title.
    const badPriorityNoTitle: ErrorEnvelope = failure('invalid_arguments', {
      connector: 'tracker',
      issues: [{ path: 'priority', message: 'Too big: expected number to be <=5' }],
      missing: [{ field: 'title', question: 'What should the issue be called?' }],
    });
    const open = memoryOf({ attempt: 1, openFailuresOf: () => [badPriorityNoTitle] });
    const invented = callOf({
      arguments: { ok: true, value: { project: 'WEB', title: 'Made up', priority: 2 } },
    });
    // Refused, and answered with the question for the absent field alone (the priority is fixed).
    expect(decideCall(invented, open, rules)).toMatchObject({
      kind: 'skip',
      reason: 'ungrounded_input',
      envelope: {
        ok: false,
        error_type: 'needs_input',
        connector: 'tracker',
        missing: [{ field: 'title', question: 'What should the issue be called?' }],
        user_message: 'What should the issue be called?',
      },
    });
    // The title from the user: sent. Invalid arguments with nothing absent ask for nothing: sent.
    expect(
      decideCall(invented, open, { ...rules, userText: 'File it in WEB, call it Made up' }),
    ).toMatchObject({
      kind: 'send',
    });
    const badPriorityOnly: ErrorEnvelope = failure('invalid_arguments', {
      issues: [{ path: 'priority', message: 'Too big: expected number to be <=5' }],
    });
    const fixOnly = memoryOf({ attempt: 1, openFailuresOf: () => [badPriorityOnly] });
    expect(decideCall(invented, fixOnly, rules)).toMatchObject({ kind: 'send' });
  });

  it('names the cap in the answer to a capped call', () => {
    const action = decideCall(callOf({ positionInStep: 3 }), memoryOf(), { ...rules, maxCallsPerStep: 3 });
    expect(action).toMatchObject({ kind: 'skip', reason: 'call_cap' });
    expect(action.kind === 'skip' && action.envelope.ok === false && action.envelope.user_message).toContain(
      'at most 3 tool calls',
    );
  });

  it('sends what the side-effect and grounding rows let through', () => {
    const send = (call: CallState, memory: TurnMemoryView, given: CallRules = rules) =>
      decideCall(call, memory, given).kind;
    // Before any retry a tool may write twice (two different messages, say).
    expect(send(callOf(), memoryOf({ sideEffectDone: () => true }))).toBe('send');
    // One re-send per open failure of the tool.
    expect(
      send(
        callOf(),
        memoryOf({ attempt: 1, sideEffectDone: () => true, openFailuresOf: () => [needsProject] }),
      ),
    ).toBe('send');
    // A value the user gave is grounded.
    expect(send(callOf(), memoryOf({ attempt: 1, openFailuresOf: () => [needsProject] }))).toBe('send');
    // Grounding can be turned off.
    const invented = callOf({ arguments: { ok: true, value: { project: 'MADEUP', title: 'Login' } } });
    const open = memoryOf({ attempt: 1, openFailuresOf: () => [needsProject] });
    expect(send(invented, open, { ...rules, requireUserGroundedInput: false })).toBe('send');
    // An empty value is not something the user said.
    const empty = callOf({ arguments: { ok: true, value: { project: '', title: 'Login' } } });
    expect(send(empty, open)).toBe('skip');
  });
});
