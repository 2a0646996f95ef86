// The checks of a turn (`expect`): every key a check the harness makes (checks/expect-checks.ts holds
// one named check per key).
import { connectorStatuses } from '@patchbay/connector';
import { errorEnvelopeSchema, errorTypes } from '@patchbay/envelope';
import { z } from 'zod';
import { checkFlag, documented, listOf, requestLine, toolList, toolName } from './documented.js';
import { gateExpectShape } from './gate-expect-schema.js';

// `http_status`: with `mcp-http-host`, a request the HTTP gateway refused before any envelope.
const envelopeFields = ['ok', 'data', ...Object.keys(errorEnvelopeSchema.shape), 'http_status'];
const envelopeField = z.enum(envelopeFields);

/** One `args` check: a field of a successful call's arguments. */
export const argumentCheckSchema = z.strictObject({
  tool: documented(toolName, 'tool name', 'The tool whose successful call is checked.'),
  field: documented(z.string(), 'input field', 'A field of the tool’s input.'),
  equals: documented(z.unknown(), 'any value', 'The value the field must have (compared as JSON).'),
});

/** One `envelopes` check: a call of `tool` returned an envelope with these fields. */
export const envelopeCheckSchema = z.strictObject({
  tool: documented(toolName, 'tool name', 'The tool whose calls are checked.'),
  fields: listOf(envelopeField, 'list of envelope fields', 'Fields the matching envelope must carry.'),
  in_reply: listOf(
    envelopeField,
    'list of envelope fields',
    'Fields of the matching envelope whose values the reply must quote.',
  ),
  ok: documented(z.boolean().optional(), '`true` / `false`', 'The envelope’s `ok` is this.'),
  error_type: documented(z.enum(errorTypes).optional(), 'error type', 'The envelope’s `error_type` is this.'),
  ...Object.fromEntries(
    envelopeFields
      .filter((key) => !['ok', 'error_type'].includes(key))
      .map((key) => [
        key,
        documented(z.unknown().optional(), 'any value', `The envelope’s \`${key}\` equals this (as JSON).`),
      ]),
  ),
});

const statusBlockEntry = z.strictObject({
  status: documented(z.enum(connectorStatuses).optional(), 'status', 'Fields of the connector’s entry.'),
  scopes: documented(z.array(z.string()).optional(), 'list', 'Fields of the connector’s entry.'),
  tools: documented(z.array(z.string()).optional(), 'list', 'Fields of the connector’s entry.'),
  setup_url: documented(z.string().optional(), 'URL', 'Fields of the connector’s entry.'),
  would_enable: documented(z.array(z.string()).optional(), 'list', 'Fields of the connector’s entry.'),
  error: documented(z.string().optional(), 'text', 'Fields of the connector’s entry.'),
  retry_after: documented(z.string().optional(), 'ISO time', 'Fields of the connector’s entry.'),
});

/** The checks of one turn. Every key is optional; a key left out is a check not made. */
export const expectSchema = z.strictObject({
  exposed_include: toolList('Tools offered to the model in this turn.'),
  exposed_exclude: toolList('Tools not offered to the model in this turn.'),
  called_ok: toolList('Tools called in this turn whose call succeeded.'),
  not_called: toolList('Tools never called (not even attempted) in this turn.'),
  no_tool_calls: checkFlag('No tool call at all, other than `refresh_connector_status`.'),
  no_side_effects: checkFlag('No tool other than a read ran (no write, no destructive call).'),
  args: listOf(
    argumentCheckSchema,
    'list of `{ tool, field, equals }`',
    'A successful call of `tool` had `field` equal to `equals`.',
  ),
  reply_includes: listOf(
    z.string({ error: 'must be text; quote it' }),
    'list of texts',
    'Texts the reply contains (case-insensitive).',
  ),
  reply_excludes: listOf(
    z.string({ error: 'must be text; quote it' }),
    'list of texts',
    'Words the reply never says (whole words, case-insensitive).',
  ),
  outcome: documented(
    z.enum(['replied', 'asked_user', 'step_limit', 'aborted']).optional(),
    '`replied`, `asked_user`, `step_limit`, `aborted`',
    'How the turn ended.',
  ),
  asks_user: checkFlag(
    'The reply asks the user (quotes every question of a `needs_input` envelope) and nothing but reads ran.',
  ),
  no_duplicate_calls: checkFlag('No call was an identical repeat of an earlier one.'),
  status_unchanged: checkFlag('The connector status did not change during the turn.'),
  status_block: documented(
    z.record(z.string(), statusBlockEntry).optional(),
    'map of connector id → `{ status, scopes, tools, setup_url, would_enable, error, retry_after }`',
    'Fields of a connector’s entry in the `<connector_status>` block the model saw.',
  ),
  envelopes: listOf(
    envelopeCheckSchema,
    'list of `{ tool, fields, in_reply, …envelope fields }`',
    'A call of `tool` returned an envelope with these fields (see below).',
  ),
  requested: listOf(
    requestLine,
    'list of "METHOD url"',
    'With `packages`: requests that reached the service (query strings ignored).',
  ),
  no_service_requests: checkFlag('With `packages`: no request reached the service in this turn.'),
  service_aborted: documented(
    z.number().int().min(0).optional(),
    'count',
    'With `packages`: exactly this many requests that reached the service in this turn were aborted by the client before the service answered (a cancelled call’s request really cancelled, not only reported so).',
  ),
  service_requests: documented(
    z.number().int().min(0).optional(),
    'count',
    'With `packages`: exactly this many requests reached the service in this turn.',
  ),
  called: documented(
    z.record(z.string(), z.number().int().min(0)).optional(),
    'map of tool name → count',
    'How many times the model called each tool in this turn (run or not: every call the turn answered).',
  ),
  server_calls: documented(
    z.record(z.string(), z.number().int().min(0)).optional(),
    'map of tool name → count',
    'With `mcp`: how many calls of each tool the MCP server itself received in this turn (counted by the server as each arrives, even one it never answers).',
  ),
  model_tool_names_valid: checkFlag(
    'Every tool name each model call of the turn was offered, as the model API receives it, matches `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI, Anthropic and Google accept).',
  ),
  ran: documented(
    z.record(z.string(), z.number().int().min(0)).optional(),
    'map of tool name → count',
    'How many times each tool’s code ran in this turn (0: the product stopped every call).',
  ),
  model_steps: documented(
    z.number().int().min(0).optional(),
    'count',
    'Exactly this many model calls in this turn (a retry after guidance is one more).',
  ),
  temperatures: documented(
    z.array(z.number().nullable()).optional(),
    'list of numbers or `null`',
    'The temperature each model call of the turn was given, in order (`null`: none, the model’s own default); a retry raises it while the retry is open.',
  ),
  results_for_model: documented(
    z.record(z.string(), z.enum(['whole', 'truncated'])).optional(),
    'map of tool name → `whole` / `truncated`',
    'How the model read every result of the tool: `whole` (the envelope as JSON) or `truncated` (text no longer than `max_result_chars` plus the truncation note, while the trace keeps the whole envelope).',
  ),
  memory: documented(
    z
      .strictObject({
        context: z.enum(['loaded', 'empty', 'failed']).optional(),
        block_includes: z.array(z.string()).optional(),
        block_excludes: z.array(z.string()).optional(),
        recorded: z.number().int().min(0).optional(),
      })
      .optional(),
    '`{ context, block_includes, block_excludes, recorded }`',
    'With `memory`: the turn’s memory read `loaded`, `empty` or `failed` (`trace.memory.context`); texts the `<memory>` block shows the model on every step (with `empty` or `failed`, no step has a `<memory>` block); texts no step’s `<memory>` block shows (case-insensitive); how many of the turn’s messages memory recorded.',
  ),
  ...gateExpectShape,
});

/** The checks of one turn, as a scenario file writes them. */
export type ExpectBlock = z.infer<typeof expectSchema>;

/** One `args` check. */
export type ArgumentCheck = z.infer<typeof argumentCheckSchema>;

/** One `envelopes` check. */
export type EnvelopeCheck = z.infer<typeof envelopeCheckSchema>;
