// The checks of a turn on the gate `gate:` set up (checks/gate-checks.ts): the proposals left in
// the store, the orchestrator's log, and a refused approval policy.
import { z } from 'zod';
import { documented, listOf, toolName } from './documented.js';

const proposalStates = ['pending', 'approved', 'rejected', 'executed', 'expired'] as const;

/** One `logged` check: a line the orchestrator logged during the turn. */
export const loggedCheckSchema = z.strictObject({
  message: documented(z.string().min(1), 'text', 'Text the line’s message contains.'),
  level: documented(
    z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).optional(),
    'level',
    'The line’s level.',
  ),
  fields: listOf(z.string().min(1), 'list of field names', 'Fields the line carries, each with a value.'),
  count: documented(
    z.number().int().min(1).optional(),
    'count',
    'Exactly this many such lines (default: at least one).',
  ),
});

/** The gate's checks, spread into `expect`. */
export const gateExpectShape = {
  proposals: documented(
    z.partialRecord(z.enum(proposalStates), z.number().int().min(0)).optional(),
    'map of proposal state → count',
    'With `gate`: after the turn, exactly this many of the turn subject’s proposals are in each state named (a state left out: none).',
  ),
  logged: listOf(
    loggedCheckSchema,
    'list of `{ message, level, fields, count }`',
    'With `gate`: lines the orchestrator logged during the turn.',
  ),
  not_logged: listOf(
    z.string().min(1),
    'list of texts',
    'With `gate`: texts no line the orchestrator logged during the turn contains.',
  ),
  user_messages: listOf(
    z.strictObject({
      tool: documented(toolName, 'tool name', 'The tool whose calls are checked.'),
      includes: documented(z.string().min(1), 'text', 'Text the user message contains.'),
    }),
    'list of `{ tool, includes }`',
    'A call of `tool` in this turn was answered with a `user_message` containing this text (for messages that name a proposal id).',
  ),
  policy_refused: documented(
    z.strictObject({ error_code: z.string().min(1), message: z.string().min(1) }).optional(),
    '`{ error_code, message }`',
    'With `gate.refused`: createOrchestrator refused `gate.approvals` with this error code and a message containing this text.',
  ),
};
