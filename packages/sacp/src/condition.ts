import { PatchbayError } from '@patchbay/envelope';
import { compileExpression } from 'filtrex';
import { sacpStatuses } from './reply.js';
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

/** The reply's own fields, readable bare (`status`) or, as seed 004 writes them, under `response.`. */
const replyFields = new Set(['status', 'data', 'message', 'thought', 'next_step_hint']);
/** What a condition may name at its root besides the reply's fields. */
const runFields = new Set(['visits', 'step']);
const keywords = new Set([
  'and',
  'or',
  'not',
  'in',
  'of',
  'if',
  'then',
  'else',
  'mod',
  'true',
  'false',
  'null',
]);
const functions = new Set([
  'abs',
  'ceil',
  'empty',
  'exists',
  'floor',
  'log',
  'log2',
  'log10',
  'max',
  'min',
  'round',
  'sqrt',
]);

/**
 * What is wrong with the names a condition uses, checked when the chain is defined: a root a reply
 * cannot have (`response.score` instead of `response.data.score`, `stauts`), a field under a scalar
 * (`status.code`), an unknown function, or a status compared with a value no reply carries.
 */
function nameProblems(expression: string): string[] {
  const problems: string[] = [];
  // Strings are double-quoted in filtrex; their contents are not names.
  const code = expression.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const symbol = /'((?:[^'\\]|\\.)*)'|([A-Za-z_$][A-Za-z0-9_$.]*)(\s*\()?/g;
  for (const match of code.matchAll(symbol)) {
    const name = match[1] ?? match[2] ?? '';
    if (match[2] !== undefined && keywords.has(name)) continue;
    if (match[3] !== undefined) {
      if (!functions.has(name))
        problems.push(`"${name}" is not a function conditions know (${[...functions].join(', ')})`);
      continue;
    }
    const segments = splitPath(name);
    const path = segments[0] === 'response' ? segments.slice(1) : segments;
    const [root, ...rest] = path;
    const shown = segments[0] === 'response' ? 'response.' : '';
    if (root === undefined)
      problems.push(
        `"${name}" names the whole reply; name one of its fields (${shown}status, ${shown}data.…)`,
      );
    else if (runFields.has(root) && segments[0] !== 'response') {
      if (rest.length > 0) problems.push(`"${name}": ${root} is a number and has no fields`);
    } else if (!replyFields.has(root)) {
      const hint =
        segments[0] === 'response' || !replyFields.has(root)
          ? ` (a reply has ${[...replyFields].map((field) => `${shown}${field}`).join(', ')}; its own results are under ${shown}data.)`
          : '';
      problems.push(`"${name}" is nothing a reply has${hint}`);
    } else if (root !== 'data' && rest.length > 0) {
      problems.push(`"${name}": ${shown}${root} is text and has no fields`);
    }
  }
  const comparedStatus =
    /(?:\bresponse\.)?\bstatus\s*(?:==|!=)\s*"([^"]*)"|"([^"]*)"\s*(?:==|!=)\s*(?:\bresponse\.)?\bstatus\b/g;
  for (const match of expression.matchAll(comparedStatus)) {
    const value = match[1] ?? match[2] ?? '';
    if (!(sacpStatuses as readonly string[]).includes(value)) {
      problems.push(`no reply has status "${value}" (statuses: ${sacpStatuses.join(', ')})`);
    }
  }
  return problems;
}

/** A compiled edge condition: true when the edge should be taken; `error` when the expression failed at run time. */
export type CompiledCondition = (scope: ConditionScope) => { matched: boolean; error?: string };

/**
 * Compiles an edge condition written in filtrex, a safe expression language (no access to globals
 * or prototypes): e.g. `status == "success" and data.score > 0.8`, or in seed 004's form
 * `response.status == "success" and response.data.score > 0.8`. Strings use double quotes; dotted
 * names read nested values; a missing value under `data` reads as null. Throws
 * `sacp_invalid_condition` on a syntax error and on anything a reply cannot have (an unknown field,
 * a field of a text, an unknown function, a status no reply carries), so a misspelt condition fails
 * when the chain is defined instead of silently never matching.
 */
export function compileCondition(expression: string): CompiledCondition {
  const problems = nameProblems(expression);
  if (problems.length > 0) {
    throw new PatchbayError(
      'sacp_invalid_condition',
      `Edge condition "${expression}": ${problems.join('; ')}.`,
    );
  }
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
      const { visits: _visits, step: _step, ...reply } = scope;
      const value = evaluate({ ...scope, response: reply });
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
