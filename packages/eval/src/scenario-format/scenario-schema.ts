// The scenario file format: a scenario, its turns, its MCP servers, and the two file forms built
// from BFCL data. The source of truth for the docs (see `scenarioFormatMarkdown`) and the validator.
import { z } from 'zod';
import {
  connectorStateSchema,
  connectorStates,
  routeResponseSchema,
  routes,
} from './connector-state-schema.js';
import { checkFlag, documented, listOf, toolName } from './documented.js';
import { argumentCheckSchema, envelopeCheckSchema, expectSchema } from './expect-schema.js';
import { gateKey } from './gate-schema.js';
import { scriptStepSchema } from './script-step-schema.js';

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
    json_schema_tools: documented(
      z.boolean().optional(),
      '`true` / `false`',
      'The server serves, instead of the controllable server’s tools, write tools declared by JSON Schema only (no zod): `$ref`, `allOf` / `anyOf` / `oneOf`, defaults, arrays of objects, `additionalProperties`, `patternProperties` (in the Patchbay repository: evals/connectors/json-schema-tools-server.mjs). Each answers how many times it ran and the arguments it received.',
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
  gate: gateKey,
  functions: checkFlag(
    'The config’s `callers.agents` (application functions) are registered for this scenario’s turns too, beside the connectors, so the turn offers and gates them (`requires` included).',
  ),
  runners: documented(
    z
      .union([z.literal('all'), z.array(z.string().regex(/^[a-z][a-z0-9-]*$/, 'a runner name, e.g. ai-sdk'))])
      .optional(),
    '`all`, or a list of runner names',
    'Also run the scenario through other turn runners of the config’s `runners` (`all`: every one not given as `{ run, inAll: false }`): once per runner, as `<id>@<runner>`, graded by the same checks (the naive baselines’ `targets` stay with the original). In the Patchbay repository: `stream-turn` (streamTurn), `ai-sdk`, `openai-agents` and `langchain` (each framework’s own loop with its Patchbay package, driven by the same model), and, only where named, `sacp-chain` (the turn as a SACP chain of agent nodes with guardrails and resume) and `unsignalled-turn` (runTurn called without a `signal`, as an application that never cancels calls it).',
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
export const fileForms = {
  scenarios: z.strictObject({ scenarios: z.array(scenarioSchema).min(1) }),
  bfcl_irrelevance: z.strictObject({ bfcl_irrelevance: bfclIrrelevanceSchema }),
  bfcl_miss_param: z.strictObject({ bfcl_miss_param: bfclMissParamSchema }),
};

/** The tables of `scenarioFormatMarkdown`, in order: a heading and the object schema it documents. */
export const documentedShapes: ReadonlyArray<readonly [heading: string, schema: z.ZodType]> = [
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

/** One scenario, as a scenario file writes it. */
export type ScenarioDocument = z.infer<typeof scenarioSchema>;

/** One user turn, as a scenario file writes it. */
export type TurnDocument = z.infer<typeof turnSchema>;

/** `bfcl_irrelevance:`, as a scenario file writes it. */
export type BfclIrrelevanceDocument = z.infer<typeof bfclIrrelevanceSchema>;

/** `bfcl_miss_param:`, as a scenario file writes it. */
export type BfclMissParamDocument = z.infer<typeof bfclMissParamSchema>;
