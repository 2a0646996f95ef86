import { describe, expect, it } from 'vitest';
import { type ConditionScope, compileCondition } from './condition.js';

const scope = (overrides: Partial<ConditionScope> = {}): ConditionScope => ({
  status: 'success',
  data: { score: 0.9, label: 'invoice', nested: { tags: ['a', 'b'] } },
  message: 'm',
  thought: '',
  visits: 1,
  step: 1,
  ...overrides,
});

describe('compileCondition', () => {
  it.each([
    ['status == "success"', true],
    ['status == "failure"', false],
    ['data.score > 0.8', true],
    ['data.score > 0.95', false],
    ['data.label in ("invoice", "receipt") and visits < 2', true],
    ['data.nested.tags.1 == "b"', true],
    ['data.missing > 1', false],
    ['exists(data.missing)', false],
    ['not exists(data.missing)', true],
  ])('%s → %s', (expression, expected) => {
    expect(compileCondition(expression)(scope()).matched).toBe(expected);
  });

  it('cannot reach prototypes or globals', () => {
    expect(compileCondition('data.constructor')(scope()).matched).toBe(false);
    expect(compileCondition('data.__proto__')(scope()).matched).toBe(false);
    expect(compileCondition('response.data.constructor')(scope()).matched).toBe(false);
    // A global is nothing a reply has: refused when the chain is defined.
    expect(() => compileCondition('process')).toThrow(/nothing a reply has/);
  });

  it('reports a run-time error instead of throwing', () => {
    const result = compileCondition('data.label > 1 + "x"')(scope());
    expect(result.matched).toBe(false);
  });

  // Seed 004 writes conditions over `response.`; they must route exactly as the bare form does.
  it.each([
    ['response.status == "success"', true],
    ['response.status == "failure"', false],
    ['response.data.score > 0.8', true],
    ['response.data.score > 0.95', false],
    ['"success" == response.status and visits < 2', true],
    ['response.message == "m"', true],
  ])('seed form %s → %s', (expression, expected) => {
    expect(compileCondition(expression)(scope()).matched).toBe(expected);
  });

  it.each([
    ['response.score > 0.8', /"response\.score" is nothing a reply has.*under response\.data/],
    ['stauts == "success"', /"stauts" is nothing a reply has/],
    ['status == "succes"', /no reply has status "succes"/],
    ['response.status == "needs_input"', /no reply has status "needs_input"/],
    ['status.code == 1', /status is text and has no fields/],
    ['visits.count > 1', /visits is a number/],
    ['nosuchfunction(1)', /"nosuchfunction" is not a function/],
    ['response > 1', /names the whole reply/],
  ])('refuses %s when the chain is defined', (expression, message) => {
    expect(() => compileCondition(expression)).toThrow(
      expect.objectContaining({ code: 'sacp_invalid_condition', message: expect.stringMatching(message) }),
    );
  });

  it('does not read names inside strings', () => {
    expect(compileCondition('data.label == "stauts or nosuch(1)"')(scope()).matched).toBe(false);
  });

  it('throws sacp_invalid_condition on a syntax error', () => {
    expect(() => compileCondition('status ==')).toThrow(
      expect.objectContaining({ code: 'sacp_invalid_condition' }),
    );
  });
});
