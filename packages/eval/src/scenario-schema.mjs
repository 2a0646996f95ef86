// The scenario file format, in one place: the zod schema of every key (the source of truth for the
// docs, see `scenarioFormatMarkdown`), the checks that need to know what is installed (connector ids,
// tool names, service responses, baselines, external data), and the mapping of each problem to the
// file, line and column it came from, with a "did you mean" suggestion. It imports nothing of the eval
// harness itself, so a package can export it as it is and hand it its own connectors.
import { relative } from 'node:path';
import { connectorStatuses } from '@patchbay/connector';
import { errorEnvelopeSchema, errorTypes } from '@patchbay/envelope';
import { refreshConnectorStatusToolName } from '@patchbay/protocol';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';

/** A documented key: `description` says what it does, `type` how to write its value. */
const documented = (schema, type, description) => schema.meta({ type, description });

const toolName = z.string().min(1);
const listOf = (item, type, description) => documented(z.array(item).optional(), type, description);
const toolList = (description) => listOf(toolName, 'list of tool names', description);
const checkFlag = (description) =>
  documented(
    z.literal(true, { error: 'write `true`, or leave the key out to skip this check' }).optional(),
    '`true`',
    description,
  );
const routeKey = /^(GET|POST|PUT|PATCH|DELETE) https?:\/\/\S+$/;
const requestLine = z
  .string()
  .regex(routeKey, 'must read "METHOD https://host/path", e.g. "GET https://api.github.com/user"');

/** The status a scenario gives a connector: a bare status, or an object with its details. */
export const connectorStateSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { status: value } : value),
  z.strictObject({
    status: documented(
      z.enum(connectorStatuses),
      connectorStatuses.map((status) => `\`${status}\``).join(', '),
      'The connector status for the scenario’s user. A bare status (`github: connected`) is short for `{ status: … }`.',
    ),
    scopes: listOf(
      z.string(),
      'list of scope names',
      'Only with `connected`: the scopes granted (default: every scope the connector declares).',
    ),
    error: documented(
      z.string().optional(),
      'text',
      'Only with `invalid_credentials`: the error the credential check reported.',
    ),
    retry_after_s: documented(
      z.number().int().positive().optional(),
      'seconds',
      'Only with `rate_limited`: when the limit lifts, counted from the turn’s `at` (default 600).',
    ),
  }),
);

const connectorStates = (description) =>
  documented(
    z.record(z.string(), connectorStateSchema).optional(),
    'map of connector id → connector state',
    description,
  );

/** A route's answer: a fixture response name, or one with arguments. */
export const routeResponseSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { response: value } : value),
  z.strictObject({
    response: documented(
      z.string(),
      'response name',
      'A response of the config’s `service` (in the Patchbay repository: the connector packages’ fixtures, e.g. `github.issue`). A bare name is short for `{ response: … }`.',
    ),
    retry_after_s: documented(
      z.number().int().positive().optional(),
      'seconds',
      'For `*.rate_limited`: the `Retry-After` the service sends (default 30).',
    ),
  }),
);

const routes = (description) =>
  documented(
    z
      .record(z.string().regex(routeKey, 'a route reads "METHOD https://host/path"'), routeResponseSchema)
      .optional(),
    'map of "METHOD url" → response',
    description,
  );

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
});

/** One step of an adversary's script (see agents/adversaries.mjs). */
export const scriptStepSchema = z.strictObject({
  calls: listOf(
    z.strictObject({
      tool: documented(toolName, 'tool name', 'Any name, offered or not, real or made up.'),
      args: documented(z.unknown().optional(), 'any value', 'The arguments (a string is sent as is).'),
    }),
    'list of `{ tool, args }`',
    'Tool calls the adversary makes in this step.',
  ),
  resend: checkFlag('Send the previous step’s calls again, unchanged.'),
  invent: checkFlag('Answer every open `needs_input` by inventing the missing values.'),
  set: connectorStates('Status changes applied just before this step (a change during the turn).'),
  reply: documented(z.string().optional(), 'text', 'The step’s text; a step with no calls ends the turn.'),
  repeat: documented(z.number().int().min(1).max(50).optional(), 'count', 'Play this step this many times.'),
  cancel: checkFlag(
    'The turn’s signal fires (the user cancelled) just before this step is answered; with `direct-caller`, the calls are made with a signal that already fired.',
  ),
  cancel_after: documented(
    toolName.optional(),
    'tool name',
    'The turn’s signal fires while this step’s calls run, as soon as this tool’s code runs (the user cancelled mid-step).',
  ),
  cancel_while_reading: checkFlag(
    'With `direct-caller`: the caller’s signal fires while the gate reads the status store for the step’s first call (after routing), as a caller giving up on a slow store does.',
  ),
  cancel_at_service: checkFlag(
    'The turn’s signal fires while this step’s calls run, as soon as a request reached the fake service (with `packages`): the request is in flight and must be aborted.',
  ),
  approve: checkFlag(
    'With `direct-caller` or `mcp-host`: a person approves every pending proposal of the user (`orchestrator.approve`) before the step’s calls.',
  ),
  run_approved: documented(
    z.number().int().min(1).max(10).optional(),
    'count',
    'With `direct-caller`: this many approvers at once each run every approved proposal of the user (`orchestrator.executeProposal`), after `approve` and before the step’s calls; each run is recorded as a call of the proposal’s tool.',
  ),
  reset_executed: checkFlag(
    'With `direct-caller` and `store`: every proposal the scenario’s approvers already ran is set back to `approved` in the database itself (write access to the file, not the key), after `run_approved`.',
  ),
  replay_approved: checkFlag(
    'With `direct-caller`: every proposal the scenario’s approvers already ran is run again (`orchestrator.executeProposal`, the same approval a second time), after `reset_executed`; each replay is recorded as a call of its tool.',
  ),
  origin: documented(
    z.url().optional(),
    'URL',
    'With `mcp-http-host`: the step’s calls carry this `Origin` header (a web page elsewhere); default the gateway’s own.',
  ),
  token: documented(
    z.enum(['wrong', 'none']).optional(),
    '`wrong` / `none`',
    'With `mcp-http-host`: the step’s calls carry a wrong bearer token, or none.',
  ),
  session: documented(
    z.enum(['unknown', 'none']).optional(),
    '`unknown` / `none`',
    'With `mcp-http-host`: the step’s calls carry a session id the gateway never issued, or none.',
  ),
  disable: documented(
    z.string().min(1).optional(),
    'agent id',
    'With `direct-caller` or `mcp-host`: an admin disables this agent for the user (an MCP server’s name, `function:<tool>`) before the step’s calls.',
  ),
  stop: documented(
    z.string().min(1).optional(),
    'agent id',
    'With `direct-caller` or `mcp-host`: stop this agent (`orchestrator.stopAgent`, e.g. `connector:github`) before the step’s calls.',
  ),
});

const memoryState = z.enum(['up', 'down']);

/** One MCP server of a scenario: the controllable test server, up or down. */
export const mcpServerSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { state: value } : value),
  z.strictObject({
    state: documented(
      memoryState,
      '`up`, `down`',
      'The server runs (`up`) or exits before it speaks MCP (`down`: the status block shows it `unavailable`). A bare state (`lab: down`) is short for `{ state: … }`.',
    ),
    timeout_ms: documented(
      z.number().int().positive().optional(),
      'milliseconds',
      'The MCP client’s deadline per call (default 10000): a call that hangs ends `timeout` by then.',
    ),
    trust: documented(
      z.boolean().optional(),
      '`true` / `false`',
      'Whether the gate trusts the server (default `false`: a tool not annotated read-only needs approval).',
    ),
    requires: documented(
      z.array(z.string()).optional(),
      'list of connector ids',
      'Every tool of the server requires these connectors to be connected (a tool’s `requires`): offered and run only while they are.',
    ),
    hostile_names: documented(
      z.boolean().optional(),
      '`true` / `false`',
      'The server also serves tools whose names model APIs refuse (`get.weather`, `ns/tool`, `café` and a 72-character name), each answering with its own name.',
    ),
    secret_env: documented(
      z
        .string()
        .regex(/^[A-Z][A-Z0-9_]*$/, 'an environment variable name, e.g. LAB_TOKEN')
        .optional(),
      'variable name',
      'Hand the server a credential (`eval-<server>-token-0001`) in this declared, secret environment variable (its `read_env` tool reads it back).',
    ),
  }),
);

/** One user turn. */
export const turnSchema = z.strictObject({
  at: documented(
    z.iso.datetime({ error: 'must be an ISO 8601 time in UTC, e.g. 2026-11-21T15:00:00Z' }),
    'ISO 8601 time (UTC)',
    'When the user sends the message: the clock of the status capture and of the gate.',
  ),
  user: documented(z.string().min(1), 'text', 'The user’s message. Quote it when it contains `#` or `: `.'),
  set: connectorStates('Status changes applied before this turn (e.g. the user connected Slack).'),
  http: routes('With `packages`: routes that replace routes of the same key from this turn on.'),
  script: listOf(
    scriptStepSchema,
    'list of script steps',
    'With `adversary`: what the adversary does, one step per model call (see below).',
  ),
  subject: documented(
    z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, 'a lower-case name, e.g. bob')
      .optional(),
    'subject id',
    'Whose turn it is (default `eval-user`). Each subject of a scenario gets the connector states of `connectors` and `set`; `memory` stays the default subject’s.',
  ),
  with_next: checkFlag(
    'The next turn starts at the same time as this one (not after it): both run at once, each checked by its own `expect`, on this turn’s clock. The service’s requests of turns run together are counted on the first of them.',
  ),
  thread: documented(
    z.string().min(1).optional(),
    'thread id',
    'The conversation thread of this turn (default: the scenario id). A new thread is a new session: with `memory`, the previous thread’s session ends first (its final flush writes the context).',
  ),
  memory: documented(
    memoryState.optional(),
    '`up`, `down`',
    'With `memory`: take the memory server down (or bring it back) before this turn.',
  ),
  expect: documented(expectSchema.optional(), 'checks', 'The checks of this turn (see below).'),
});

/** One scenario. */
export const scenarioSchema = z.strictObject({
  id: documented(
    z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be kebab-case: lower-case letters, digits and -'),
    'kebab-case id',
    'Unique among all scenarios; `--filter` matches it.',
  ),
  title: documented(
    z.string().min(1),
    'text',
    'What the scenario shows, in a few words (shown in progress and report).',
  ),
  source: documented(z.string().optional(), 'text', 'Where the case comes from.'),
  targets: listOf(
    z.string(),
    'list of baseline names',
    'Naive baselines this scenario must catch: `patchbay-eval run --baselines` fails if one of them passes it.',
  ),
  adversary: documented(
    z.string().optional(),
    'adversary name',
    'A scripted adversary plays the model (whatever model is under test): a test of the product.',
  ),
  packages: listOf(
    z.string(),
    'list of package connector ids',
    'Run on these connectors of the config’s `packages` instead of its `connectors`; their HTTP is answered by `http` routes (with the config’s `service`).',
  ),
  connectors: connectorStates(
    'The status of each connector before the first turn; a connector left out is not configured.',
  ),
  fixtures: documented(
    z.record(z.string(), z.unknown()).optional(),
    'map of tool name → data',
    'For a `connectors` factory (stand-ins): what a tool answers (`{ not_found: "…" }` for a not_found envelope, `{ error_with_credential: "…" }` for an error that echoes the credential, `{ result_with_credential: "…" }` for a result that carries it).',
  ),
  http: routes('With `packages`: the service routes for the whole scenario.'),
  mcp: documented(
    z.record(z.string().regex(/^[a-z]+$/, 'a lower-case name, e.g. lab'), mcpServerSchema).optional(),
    'map of server name → MCP server',
    'MCP servers the config’s `mcp` registers in the orchestrator (in the Patchbay repository: the controllable test server of @patchbay/mcp, a child process over stdio); their tools are `<name>_<tool>` (`lab_hang`, `lab_echo`, `lab_read_env`, …) and the status block lists them by name.',
  ),
  store: documented(
    z.enum(['sqlite', 'postgres', 'all']).optional(),
    '`sqlite`, `postgres`, `all`',
    'The status source, proposals and threads are a real store of the config’s `store`, fresh for the run and removed after it (in the Patchbay repository: `openStore` of @patchbay/store), set up as `patchbay connect` / `disable` would: `sqlite`, `postgres` (only where the config offers it: PATCHBAY_DATABASE_URL), or `all`: SQLite, and a copy `<id>@<database>` on every other database the config offers now.',
  ),
  functions: checkFlag(
    'The config’s `callers.agents` (application functions) are registered for this scenario’s turns too, beside the connectors, so the turn offers and gates them (`requires` included).',
  ),
  runners: documented(
    z
      .union([z.literal('all'), z.array(z.string().regex(/^[a-z][a-z0-9-]*$/, 'a runner name, e.g. ai-sdk'))])
      .optional(),
    '`all`, or a list of runner names',
    'Also run the scenario through other turn runners of the config’s `runners` (`all`: every one): once per runner, as `<id>@<runner>`, graded by the same checks (the naive baselines’ `targets` stay with the original). In the Patchbay repository: `stream-turn` (streamTurn), `ai-sdk`, `openai-agents` and `langchain` (each framework’s own loop with its Patchbay package, driven by the same model).',
  ),
  turn_options: documented(
    z
      .strictObject({
        needs_input: z.enum(['retry', 'ask']).optional(),
        max_result_chars: z.number().int().min(1000).optional(),
      })
      .optional(),
    '`{ needs_input, max_result_chars }`',
    'Options of runTurn for every turn: `needs_input: ask` ends the turn with the envelope’s questions at once instead of letting the model retry (`retry`, the default); `max_result_chars` is the longest tool result the model reads whole (runTurn’s `maxResultChars`).',
  ),
  memory: documented(
    memoryState.optional(),
    '`up`, `down`',
    'Long-term memory in every turn, from the config’s `memory` (in the Patchbay repository: `turnMemory` of @patchbay/memory over its MCP server on SQLite, the memory agent’s model a stand-in): the status block shows `memory`, the previous sessions’ context reaches the model as a `<memory>` block, and every message is recorded.',
  ),
  agentdojo: documented(
    z
      .strictObject({
        attack: z.string().meta({ description: 'An attack template of AgentDojo’s attacks.json.' }),
        suite: z.string().meta({ description: 'The suite whose injection goals to use.' }),
        task: z.string().meta({ description: 'The injection task whose goal to inject.' }),
      })
      .optional(),
    '`{ attack, suite, task }`',
    'Fill every `{injection}` in the scenario with this AgentDojo payload.',
  ),
  turns: documented(z.array(turnSchema).min(1), 'list of turns', 'The user turns, in order (see below).'),
});

/** `bfcl_irrelevance:` — one single-turn scenario per BFCL irrelevance question. */
export const bfclIrrelevanceSchema = z.strictObject({
  file: documented(
    z.string(),
    'file name',
    'The BFCL file the config’s `data.bfcl` reads (`.json` read as `.jsonl`).',
  ),
  ids: documented(z.array(z.string()).min(1), 'list of BFCL ids', 'The questions to ask.'),
  targets: scenarioSchema.shape.targets,
  connectors: scenarioSchema.shape.connectors,
  expect: documented(expectSchema, 'checks', 'The checks of every question’s turn.'),
});

/** One case of `bfcl_miss_param`. */
export const bfclMissParamCaseSchema = z.strictObject({
  id: documented(z.string(), 'BFCL id', 'The BFCL case.'),
  ask_turn: documented(z.number().int().nonnegative(), 'index', 'The BFCL turn that lacks a parameter.'),
  answer_turn: documented(z.number().int().nonnegative(), 'index', 'The BFCL turn that supplies it.'),
  tool: documented(toolName, 'tool name', 'The tool the answer turn must call.'),
  args: documented(
    z.record(z.string(), z.unknown()),
    'map of field → value',
    'Arguments that call must have.',
  ),
});

/** `bfcl_miss_param:` — two-turn scenarios: ask for the missing parameter, then use it. */
export const bfclMissParamSchema = z.strictObject({
  file: bfclIrrelevanceSchema.shape.file,
  targets: scenarioSchema.shape.targets,
  connectors: scenarioSchema.shape.connectors,
  cases: documented(z.array(bfclMissParamCaseSchema).min(1), 'list of cases', 'The cases (see below).'),
});

/** The top-level forms of a scenario file, by the key that selects each. */
const fileForms = {
  scenarios: z.strictObject({ scenarios: z.array(scenarioSchema).min(1) }),
  bfcl_irrelevance: z.strictObject({ bfcl_irrelevance: bfclIrrelevanceSchema }),
  bfcl_miss_param: z.strictObject({ bfcl_miss_param: bfclMissParamSchema }),
};

/** The tables of `scenarioFormatMarkdown`, in order: a heading and the object schema it documents. */
export const documentedShapes = [
  ['Scenario', scenarioSchema],
  ['Turn (`turns[]`)', turnSchema],
  ['Script step (`turns[].script[]`)', scriptStepSchema],
  ['Checks (`expect`)', expectSchema],
  ['Connector state (`connectors`, `set`)', connectorStateSchema],
  ['Route response (`http`)', routeResponseSchema],
  ['MCP server (`mcp`)', mcpServerSchema],
  ['`args[]`', argumentCheckSchema],
  ['`envelopes[]`', envelopeCheckSchema],
  ['`bfcl_irrelevance`', bfclIrrelevanceSchema],
  ['`bfcl_miss_param`', bfclMissParamSchema],
  ['`bfcl_miss_param.cases[]`', bfclMissParamCaseSchema],
];

const definitionOf = (schema) => schema._zod.def;

/** The object schema under wrappers (optional, preprocess), or undefined. */
function objectOf(schema) {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const definition = definitionOf(current);
    if (definition.type === 'object') return current;
    current =
      definition.type === 'optional' || definition.type === 'default'
        ? definition.innerType
        : definition.type === 'pipe'
          ? definition.out
          : undefined;
  }
  return undefined;
}

/** The schema a data path leads to from `schema`, following objects, records, arrays and wrappers. */
function schemaAt(schema, path) {
  let current = schema;
  for (const segment of path) {
    if (!current) return undefined;
    let definition = definitionOf(current);
    while (['optional', 'default', 'pipe'].includes(definition.type)) {
      current = definition.type === 'pipe' ? definition.out : definition.innerType;
      definition = definitionOf(current);
    }
    if (definition.type === 'object') current = definition.shape[segment];
    else if (definition.type === 'record') current = definition.valueType;
    else if (definition.type === 'array') current = definition.element;
    else return undefined;
  }
  return current;
}

/** The markdown tables of every scenario key, generated from the schema (the README embeds them). */
export function scenarioFormatMarkdown() {
  const cell = (text) => String(text).replaceAll('|', '\\|');
  return documentedShapes
    .map(([heading, schema]) => {
      const shape = definitionOf(objectOf(schema)).shape;
      const rows = Object.entries(shape).map(([key, field]) => {
        const meta = field.meta() ?? {};
        const required = definitionOf(field).type === 'optional' ? '' : ' (required)';
        return `| \`${key}\`${required} | ${cell(meta.type ?? '')} | ${cell(meta.description ?? '')} |`;
      });
      return [`#### ${heading}`, '', '| key | value | meaning |', '| --- | --- | --- |', ...rows].join('\n');
    })
    .join('\n\n');
}

/** Edit distance (insertions, deletions, substitutions) between two strings. */
function distance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}

/** The known name closest to `input` when it is close enough to be a typo, else undefined. */
export function closestName(input, known) {
  const wanted = String(input).toLowerCase();
  let best;
  for (const name of known) {
    const candidate = name.toLowerCase();
    const limit = Math.max(2, Math.floor(candidate.length / 3));
    const score = distance(wanted, candidate);
    // A prefix either way is close however long the rest (`slack` for `slack_post`), but a name
    // closer by edit distance still wins.
    const prefix = candidate.startsWith(wanted) || wanted.startsWith(candidate);
    if ((score <= limit || prefix) && (!best || score < best.score)) best = { name, score };
  }
  return best?.name;
}

/**
 * What scenario files may name, beyond their own keys (built from the eval config by `catalogOf`):
 * `connectors` the connectors a scenario runs on by default, `packages` the connectors `packages:` may
 * name (by id), `responses` the fake service's response names for `http` routes, `baselines` the names
 * `targets` may use, `adversaries`, `mcpTools` and `memoryTools`, `bfcl(file)` the cases of a BFCL data
 * file (a Map by id, or undefined when there is no such file), `agentdojo` the attacks file. An
 * extension left undefined makes the keys that need it a problem.
 * @typedef {object} ScenarioCatalog
 */

/** One problem in a scenario file, where it is and, for a likely typo, the name that was meant. */
export class ScenarioProblem {
  constructor({ file, line, column, path, message, suggestion }) {
    Object.assign(this, { file, line, column, path, message, suggestion });
  }

  /** `file:line:column: path: message; did you mean "x"?`, with `file` relative to `base` when given. */
  format(base) {
    const file = base ? relative(base, this.file) : this.file;
    const where = this.path ? `${this.path}: ` : '';
    const hint = this.suggestion === undefined ? '' : `; did you mean "${this.suggestion}"?`;
    return `${file}:${this.line}:${this.column}: ${where}${this.message}${hint}`;
  }
}

/** Thrown by the loader when a scenario file does not validate; `problems` lists every one found. */
export class ScenarioFileError extends Error {
  constructor(problems, base) {
    const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
    super(
      `invalid scenario files (${count}):\n${problems.map((problem) => `  ${problem.format(base)}`).join('\n')}`,
    );
    this.name = 'ScenarioFileError';
    this.code = 'scenario_file_invalid';
    this.problems = problems;
  }
}

const pathText = (path) =>
  path.reduce((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    if (!/^[\w-]+$/.test(segment)) return `${text}[${JSON.stringify(segment)}]`;
    return text ? `${text}.${segment}` : segment;
  }, '');

/** Where `path` points in the YAML document: the key itself (`atKey`) or the value; else its nearest parent. */
function positionOf(document, lineCounter, path, atKey) {
  let node = document.contents;
  let offset = node?.range?.[0] ?? 0;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === segment);
      if (!pair) break;
      offset = (last && atKey) || !pair.value?.range ? pair.key.range[0] : pair.value.range[0];
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
      node = node.items[segment];
      offset = node.range?.[0] ?? offset;
    } else break;
  }
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/** The problems zod finds, one per unknown key, each with the key the author likely meant. */
function schemaProblems(schema, value) {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => {
    const path = issue.path;
    if (issue.code === 'unrecognized_keys') {
      const known = Object.keys(definitionOf(objectOf(schemaAt(schema, issue.path))).shape);
      // At the top of a one-scenario file, the author may have meant another file form.
      if (issue.path.length === 0 && schema === scenarioSchema) known.push(...Object.keys(fileForms));
      return issue.keys.map((key) => ({
        path: [...path, key],
        atKey: true,
        message: `unknown key "${key}"`,
        suggestion: closestName(key, known),
      }));
    }
    if (issue.code === 'invalid_value' && issue.values?.every((item) => typeof item === 'string')) {
      const input = issue.input;
      return [
        {
          path,
          message: `"${input}" is not one of ${issue.values.map((item) => `"${item}"`).join(', ')}`,
          suggestion: closestName(input, issue.values.map(String)),
        },
      ];
    }
    if (issue.code === 'invalid_type' && issue.input === undefined)
      return [{ path: path.slice(0, -1), message: `"${path.at(-1)}" is required` }];
    return [{ path, message: issue.message }];
  });
}

const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const entriesOf = (value) => (isRecord(value) ? Object.entries(value) : []);
const itemsOf = (value) => (Array.isArray(value) ? value.entries() : []);

/**
 * The checks that depend on what is installed: connector ids, tool names and their input fields,
 * scopes, service responses, baselines and external data. They read the raw document defensively, so
 * they report alongside the schema's problems instead of after they are fixed.
 */
function catalogProblems(document, catalog) {
  const problems = [];
  const report = (path, message, options = {}) => problems.push({ path, message, ...options });
  const unknown = (path, what, name, known, atKey = false) => {
    if (typeof name !== 'string' || known.includes(name)) return;
    const [kind, owner] = Array.isArray(what) ? what : [what];
    report(path, `unknown ${kind} "${name}"${owner ? ` of ${owner}` : ''}`, {
      atKey,
      suggestion: closestName(name, known),
    });
  };
  const packageIds = Object.keys(catalog.packages ?? {});

  const connectorsOf = (scenario) =>
    Array.isArray(scenario.packages)
      ? scenario.packages.map((id) => catalog.packages?.[id]).filter(Boolean)
      : catalog.connectors;

  const checkStates = (states, path, connectors) => {
    for (const [id, raw] of entriesOf(states)) {
      const connector = connectors.find((candidate) => candidate.id === id);
      unknown(
        [...path, id],
        'connector',
        id,
        connectors.map((candidate) => candidate.id),
        true,
      );
      const state = typeof raw === 'string' ? { status: raw } : raw;
      if (!isRecord(state)) continue;
      const only = { scopes: 'connected', error: 'invalid_credentials', retry_after_s: 'rate_limited' };
      for (const [key, status] of Object.entries(only))
        if (key in state && state.status !== status)
          report([...path, id, key], `"${key}" applies only to status ${status}`, { atKey: true });
      const scopes = (connector?.auth.scopes ?? []).map((scope) => scope.name);
      for (const [index, scope] of itemsOf(state.scopes))
        unknown([...path, id, 'scopes', index], ['scope', id], scope, scopes);
    }
  };

  const checkTool = (path, name, tools) => unknown(path, 'tool', name, [...tools.keys()]);
  const checkArguments = (path, name, field, tools) => {
    const fields = Object.keys(tools.get(name)?.input?.shape ?? {});
    if (fields.length > 0) unknown(path, ['input field', name], field, fields);
  };

  const checkExpect = (
    expect,
    path,
    { tools, connectors, packaged, serverIds = [], memory = false, mcp = false },
  ) => {
    if (!isRecord(expect)) return;
    for (const key of ['exposed_include', 'exposed_exclude', 'called_ok', 'not_called'])
      for (const [index, name] of itemsOf(expect[key])) checkTool([...path, key, index], name, tools);
    for (const [index, check] of itemsOf(expect.args)) {
      if (!isRecord(check)) continue;
      checkTool([...path, 'args', index, 'tool'], check.tool, tools);
      checkArguments([...path, 'args', index, 'field'], check.tool, check.field, tools);
    }
    for (const [index, check] of itemsOf(expect.envelopes))
      if (isRecord(check)) checkTool([...path, 'envelopes', index, 'tool'], check.tool, tools);
    for (const key of ['ran', 'called'])
      for (const [name] of entriesOf(expect[key]))
        unknown([...path, key, name], 'tool', name, [...tools.keys()], true);
    const ids = [...connectors.map((connector) => connector.id), ...serverIds];
    if (!memory && 'memory' in expect)
      report([...path, 'memory'], '"memory" checks need `memory:` on the scenario', { atKey: true });
    if (!mcp && 'server_calls' in expect)
      report([...path, 'server_calls'], '"server_calls" needs `mcp:` on the scenario', { atKey: true });
    for (const [id] of entriesOf(expect.status_block))
      unknown([...path, 'status_block', id], 'connector', id, ids, true);
    if (!packaged)
      for (const key of ['requested', 'no_service_requests', 'service_requests', 'service_aborted'])
        if (key in expect)
          report([...path, key], `"${key}" needs \`packages:\` (stand-in connectors send no requests)`, {
            atKey: true,
          });
  };

  // A key whose extension the project's eval config does not provide cannot run there.
  const needsExtension = (container, key, path, extension, present) => {
    if (isRecord(container) && key in container && !present)
      report([...path, key], `"${key}" needs \`${extension}\` in the eval config`, { atKey: true });
  };

  const checkRoutes = (routes, path) => {
    if (routes !== undefined && !catalog.responses) return;
    for (const [key, value] of entriesOf(routes)) {
      const name = typeof value === 'string' ? value : isRecord(value) ? value.response : undefined;
      const at = typeof value === 'string' ? [...path, key] : [...path, key, 'response'];
      unknown(at, 'service response', name, catalog.responses ?? []);
    }
  };

  const toolsOf = (connectors) =>
    new Map([
      ...connectors.flatMap((connector) => connector.tools.map((tool) => [tool.name, tool])),
      [refreshConnectorStatusToolName, { name: refreshConnectorStatusToolName }],
    ]);

  const checkTargets = (targets, path) => {
    for (const [index, name] of itemsOf(targets))
      unknown([...path, index], 'baseline', name, catalog.baselines ?? []);
  };

  const checkScenario = (scenario, path) => {
    if (!isRecord(scenario)) return;
    for (const [index, id] of itemsOf(scenario.packages))
      unknown([...path, 'packages', index], 'connector package', id, packageIds);
    const packaged = Array.isArray(scenario.packages);
    const connectors = connectorsOf(scenario);
    const tools = toolsOf(connectors);
    // MCP servers and memory add their tools, and their names to what the status block may show.
    const serverIds = [];
    for (const [name] of entriesOf(scenario.mcp)) {
      serverIds.push(name);
      for (const tool of catalog.mcpTools ?? []) tools.set(`${name}_${tool}`, { name: `${name}_${tool}` });
    }
    if (scenario.functions === true)
      for (const tool of catalog.functionTools ?? []) tools.set(tool, { name: tool });
    if ('memory' in scenario) {
      serverIds.push('memory');
      for (const tool of catalog.memoryTools ?? []) tools.set(tool, { name: tool });
    }
    // An adversary may call a tool no connector has; its checks may then name that tool.
    if ('adversary' in scenario)
      for (const [, turn] of itemsOf(scenario.turns))
        for (const [, step] of itemsOf(isRecord(turn) ? turn.script : undefined))
          for (const [, call] of itemsOf(isRecord(step) ? step.calls : undefined))
            if (isRecord(call) && typeof call.tool === 'string' && !tools.has(call.tool))
              tools.set(call.tool, { name: call.tool });
    const context = {
      tools,
      connectors,
      packaged,
      serverIds,
      memory: 'memory' in scenario,
      mcp: 'mcp' in scenario,
    };
    needsExtension(scenario, 'mcp', path, 'mcp', catalog.mcpTools);
    needsExtension(scenario, 'memory', path, 'memory', catalog.memoryTools);
    needsExtension(scenario, 'agentdojo', path, 'data.agentdojo', catalog.agentdojo);
    needsExtension(scenario, 'store', path, 'store', catalog.databases);
    needsExtension(scenario, 'functions', path, 'callers.agents', catalog.functionTools);
    if (
      typeof scenario.store === 'string' &&
      scenario.store !== 'all' &&
      catalog.databases &&
      !catalog.databases.includes(scenario.store)
    )
      report(
        [...path, 'store'],
        `the config's store offers no ${scenario.store} database here (it offers: ${catalog.databases.join(', ')}); \`all\` runs on every one it offers`,
      );
    for (const [name, server] of entriesOf(scenario.mcp))
      for (const [index, id] of itemsOf(isRecord(server) ? server.requires : undefined))
        unknown(
          [...path, 'mcp', name, 'requires', index],
          'connector',
          id,
          connectors.map((candidate) => candidate.id),
        );
    if (packaged) needsExtension(scenario, 'http', path, 'service', catalog.responses);
    checkTargets(scenario.targets, [...path, 'targets']);
    if ('adversary' in scenario)
      unknown([...path, 'adversary'], 'adversary', scenario.adversary, catalog.adversaries ?? []);
    checkStates(scenario.connectors, [...path, 'connectors'], connectors);
    if (packaged && 'fixtures' in scenario)
      report([...path, 'fixtures'], '"fixtures" answer stand-in tools; with `packages:` use `http` routes', {
        atKey: true,
      });
    for (const [name] of entriesOf(scenario.fixtures))
      unknown([...path, 'fixtures', name], 'tool', name, [...tools.keys()], true);
    if (!packaged && 'http' in scenario)
      report([...path, 'http'], '"http" routes need `packages:` (stand-in connectors send no requests)', {
        atKey: true,
      });
    checkRoutes(scenario.http, [...path, 'http']);
    if (isRecord(scenario.agentdojo) && catalog.agentdojo) {
      const { attack, suite, task } = scenario.agentdojo;
      const at = [...path, 'agentdojo'];
      unknown([...at, 'attack'], 'AgentDojo attack', attack, Object.keys(catalog.agentdojo.attack_templates));
      unknown([...at, 'suite'], 'AgentDojo suite', suite, Object.keys(catalog.agentdojo.injection_goals));
      const goals = catalog.agentdojo.injection_goals[suite];
      if (goals)
        unknown(
          [...at, 'task'],
          ['AgentDojo task', suite],
          task,
          goals.map((goal) => goal.task),
        );
    }
    for (const [index, turn] of itemsOf(scenario.turns)) {
      if (!isRecord(turn)) continue;
      const at = [...path, 'turns', index];
      checkStates(turn.set, [...at, 'set'], connectors);
      if ('script' in turn && !('adversary' in scenario))
        report([...at, 'script'], '"script" needs `adversary:` on the scenario', { atKey: true });
      for (const [step, item] of itemsOf(turn.script))
        if (isRecord(item)) checkStates(item.set, [...at, 'script', step, 'set'], connectors);
      if (!packaged && 'http' in turn)
        report([...at, 'http'], '"http" routes need `packages:` on the scenario', { atKey: true });
      else needsExtension(turn, 'http', at, 'service', catalog.responses);
      checkRoutes(turn.http, [...at, 'http']);
      if ('with_next' in turn && index === scenario.turns.length - 1)
        report([...at, 'with_next'], '"with_next" on the last turn: no turn follows it', { atKey: true });
      if ('memory' in turn && !('memory' in scenario))
        report([...at, 'memory'], '"memory" needs `memory:` on the scenario', { atKey: true });
      checkExpect(turn.expect, [...at, 'expect'], context);
    }
  };

  const checkBfcl = (spec, path, eachCase) => {
    if (!isRecord(spec)) return;
    const connectors = catalog.connectors;
    checkTargets(spec.targets, [...path, 'targets']);
    checkStates(spec.connectors, [...path, 'connectors'], connectors);
    if (!catalog.bfcl) report([...path, 'file'], 'BFCL scenarios need `data.bfcl` in the eval config');
    const cases = typeof spec.file === 'string' ? catalog.bfcl?.(spec.file) : undefined;
    if (typeof spec.file === 'string' && catalog.bfcl && !cases)
      report([...path, 'file'], `no BFCL data file "${spec.file}" (the config's data.bfcl has none)`);
    eachCase({ tools: toolsOf(connectors), connectors, cases });
  };

  if (!isRecord(document)) return problems;
  if ('scenarios' in document)
    for (const [index, scenario] of itemsOf(document.scenarios))
      checkScenario(scenario, ['scenarios', index]);
  else if ('bfcl_irrelevance' in document) {
    const path = ['bfcl_irrelevance'];
    checkBfcl(document.bfcl_irrelevance, path, ({ tools, connectors, cases }) => {
      for (const [index, id] of itemsOf(document.bfcl_irrelevance.ids))
        if (cases) unknown([...path, 'ids', index], 'BFCL id', id, [...cases.keys()]);
      checkExpect(document.bfcl_irrelevance.expect, [...path, 'expect'], {
        tools,
        connectors,
        packaged: false,
      });
    });
  } else if ('bfcl_miss_param' in document) {
    const path = ['bfcl_miss_param'];
    checkBfcl(document.bfcl_miss_param, path, ({ tools, cases }) => {
      for (const [index, item] of itemsOf(document.bfcl_miss_param.cases)) {
        if (!isRecord(item)) continue;
        const at = [...path, 'cases', index];
        checkTool([...at, 'tool'], item.tool, tools);
        for (const [field] of entriesOf(item.args))
          checkArguments([...at, 'args', field], item.tool, field, tools);
        const found = cases?.get(item.id);
        if (cases && !found) unknown([...at, 'id'], 'BFCL id', item.id, [...cases.keys()]);
        for (const key of ['ask_turn', 'answer_turn'])
          if (found && Number.isInteger(item[key]) && !found.question?.[item[key]])
            report(
              [...at, key],
              `${item.id} has no turn ${item[key]} (it has ${found.question?.length ?? 0})`,
            );
      }
    });
  } else checkScenario(document, []);
  return problems;
}

/** The schema of a whole file, chosen by its top-level key. */
function fileSchemaOf(document) {
  if (isRecord(document))
    for (const [key, schema] of Object.entries(fileForms)) if (key in document) return schema;
  return scenarioSchema;
}

/**
 * Validates the text of one scenario file against the format and `catalog`. Returns the parsed
 * document and every problem found, each with its file, line, column and, for a likely typo, a
 * suggestion. A YAML syntax error is one problem at its own line.
 */
export function validateScenarioFile(text, file, catalog) {
  const lineCounter = new LineCounter();
  const yamlDocument = parseDocument(text, { lineCounter, prettyErrors: true });
  if (yamlDocument.errors.length > 0) {
    const [error] = yamlDocument.errors;
    const [start] = error.linePos ?? [lineCounter.linePos(error.pos[0])];
    const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return {
      document: undefined,
      problems: [
        new ScenarioProblem({ file, line: start.line, column: start.col, message: `YAML: ${message}` }),
      ],
    };
  }
  const document = yamlDocument.toJS();
  if (!isRecord(document))
    return {
      document: undefined,
      problems: [new ScenarioProblem({ file, line: 1, column: 1, message: 'a scenario file is a YAML map' })],
    };
  const found = [...schemaProblems(fileSchemaOf(document), document), ...catalogProblems(document, catalog)];
  const problems = found
    .map(({ path, atKey, message, suggestion }) => {
      const { line, column } = positionOf(yamlDocument, lineCounter, path, atKey);
      return new ScenarioProblem({ file, line, column, path: pathText(path), message, suggestion });
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
  return { document, problems };
}
