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
    expect(compileCondition('process')(scope()).matched).toBe(false);
  });

  it('reports a run-time error instead of throwing', () => {
    const result = compileCondition('nosuchfunction(1)')(scope());
    expect(result.matched).toBe(false);
    expect(result.error).toMatch(/nosuchfunction/);
  });

  it('throws sacp_invalid_condition on a syntax error', () => {
    expect(() => compileCondition('status ==')).toThrow(
      expect.objectContaining({ code: 'sacp_invalid_condition' }),
    );
  });
});
