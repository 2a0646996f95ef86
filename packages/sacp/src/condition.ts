import { PatchbayError } from '@patchbay/envelope';
import { compileExpression } from 'filtrex';
import { splitPath } from './template.js';

/** What an edge condition can read: the reply's fields plus how often the node has run. */
export interface ConditionScope {
  status: string;
  data: Record<string, unknown>;
  message: string;
  thought: string;
  next_step_hint?: string | undefined;
  /** Times the edge's source node has run in this run, counting the current one. */
  visits: number;
  /** Steps taken so far in this run. */
  step: number;
}

/** A compiled edge condition: true when the edge should be taken; `error` when the expression failed at run time. */
export type CompiledCondition = (scope: ConditionScope) => { matched: boolean; error?: string };

/**
 * Compiles an edge condition written in filtrex, a safe expression language (no access to globals
 * or prototypes): e.g. `status == "success" and data.score > 0.8`. Strings use double quotes;
 * dotted names read nested values; a missing value reads as null. Throws `sacp_invalid_condition`
 * on a syntax error.
 */
export function compileCondition(expression: string): CompiledCondition {
  let evaluate: (scope: unknown) => unknown;
  try {
    evaluate = compileExpression(expression, {
      constants: { true: true, false: false, null: null },
      customProp: (name: string, _get: unknown, object: unknown) => readPath(object, name),
    });
  } catch (error) {
    throw new PatchbayError(
      'sacp_invalid_condition',
      `Edge condition "${expression}" is not a valid expression: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return (scope) => {
    try {
      const value = evaluate(scope);
      // filtrex reports run-time errors (e.g. unknown functions) as returned Error values.
      if (value instanceof Error) return { matched: false, error: value.message };
      return { matched: Boolean(value) };
    } catch (error) {
      return { matched: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
}

// Own properties only, so an expression can never reach `constructor` or `__proto__`.
function readPath(object: unknown, name: string): unknown {
  let current = object;
  for (const segment of splitPath(name)) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return null;
    current = (current as Record<string, unknown>)[segment];
  }
  return current === undefined ? null : current;
}
