// The checks a turn's `expect` asks for: one named check per key of the format's `expect`
// (scenario-format/expect-schema.ts), each reading the value the scenario gave its key.
import type { ExpectBlock } from '../scenario-format/expect-schema.js';
import { memoryChecks, resultsForModel } from './expect-checks-model.js';
import { gateChecks } from './gate-checks.js';
import { statusViewsOf } from './status-views.js';
import {
  atStep,
  envelopeField,
  lower,
  mentions,
  replyReason,
  requestLine,
  type TurnView,
  type Verdict,
  verdict,
} from './turn-view.js';

/** The check of one `expect` key: the value the scenario gave it, and the turn. */
export type ExpectCheck<Key extends keyof ExpectBlock> = (
  wanted: NonNullable<ExpectBlock[Key]>,
  view: TurnView,
) => Verdict[];

/** Exposure on every step: a tool is offered at the turn's start and at each model call. */
const offersOf = ({ trace, steps }: TurnView) => [
  trace.exposedTools,
  ...steps.map((step) => step.exposedTools),
];

const exposedInclude: ExpectCheck<'exposed_include'> = (tools, view) => {
  const offers = offersOf(view);
  return tools.map((tool) => {
    const missing = offers.findIndex((names) => !names.includes(tool));
    return verdict(
      `offers ${tool} on every step`,
      missing < 0,
      `not offered at ${atStep(missing)} (offered: ${offers[missing]?.join(', ')})`,
    );
  });
};

const exposedExclude: ExpectCheck<'exposed_exclude'> = (tools, view) => {
  const offers = offersOf(view);
  return tools.map((tool) => {
    const offered = offers.findIndex((names) => names.includes(tool));
    return verdict(`never offers ${tool}`, offered < 0, `offered at ${atStep(offered)}`);
  });
};

const called: ExpectCheck<'called'> = (counts, { trace }) =>
  Object.entries(counts).map(([tool, count]) => {
    const calls = trace.calls.filter((call) => call.toolName === tool).length;
    return verdict(`${tool} called ${count} time(s)`, calls === count, `called ${calls} time(s)`);
  });

const ran: ExpectCheck<'ran'> = (counts, { turn }) =>
  Object.entries(counts).map(([tool, count]) => {
    const runs = turn.sideEffects.filter((effect) => effect.tool === tool).length;
    return verdict(`${tool} ran ${count} time(s)`, runs === count, `ran ${runs} time(s)`);
  });

const serviceRequests: ExpectCheck<'service_requests'> = (wanted, { turn }) => {
  const count = (turn.requests?.length ?? 0) + (turn.unhandled?.length ?? 0);
  return [
    verdict(
      `${wanted} request(s) reached the service`,
      turn.requests !== undefined && count === wanted,
      `${count} reached it`,
    ),
  ];
};

const calledOk: ExpectCheck<'called_ok'> = (tools, { trace, succeeded }) =>
  tools.map((tool) =>
    verdict(
      `${tool} ran and succeeded`,
      succeeded.includes(tool),
      `calls: ${JSON.stringify(trace.calls.map((call) => [call.toolName, call.envelope.ok ? 'ok' : envelopeField(call, 'error_type')]))}`,
    ),
  );

const notCalled: ExpectCheck<'not_called'> = (tools, { attempted }) =>
  tools.map((tool) => verdict(`does not call ${tool}`, !attempted.includes(tool), 'called'));

const noToolCalls: ExpectCheck<'no_tool_calls'> = (_flag, { trace, attempted }) => [
  verdict(
    'makes no tool call',
    trace.calls.filter((call) => call.toolName !== 'refresh_connector_status').length === 0,
    `called ${attempted.join(', ')}`,
  ),
];

const noSideEffects: ExpectCheck<'no_side_effects'> = (_flag, { turn, context }) => {
  const writes = turn.sideEffects.filter((effect) => context.effects[effect.tool] !== 'read');
  return [
    verdict('changes nothing', writes.length === 0, `ran ${writes.map((effect) => effect.tool).join(', ')}`),
  ];
};

const args: ExpectCheck<'args'> = (checks, { trace }) =>
  checks.map(({ tool, field, equals }) => {
    const call = trace.calls.find(
      (candidate) => candidate.toolName === tool && candidate.sent && candidate.envelope.ok,
    );
    const value = (call?.arguments as Record<string, unknown> | undefined)?.[field];
    return verdict(
      `${tool}.${field} = ${JSON.stringify(equals)}`,
      call !== undefined && JSON.stringify(value) === JSON.stringify(equals),
      `got ${JSON.stringify(call?.arguments)}`,
    );
  });

const replyIncludes: ExpectCheck<'reply_includes'> = (texts, view) =>
  texts.map((text) =>
    verdict(`reply says "${text}"`, lower(view.reply).includes(lower(text)), replyReason(view)),
  );

const replyExcludes: ExpectCheck<'reply_excludes'> = (texts, view) =>
  texts.map((text) =>
    verdict(`reply does not say "${text}"`, !mentions(view.reply, text), replyReason(view)),
  );

const outcome: ExpectCheck<'outcome'> = (wanted, { trace }) => [
  verdict(`outcome ${wanted}`, trace.outcome === wanted, `outcome ${trace.outcome}`),
];

/** The reply asks the user (every question of a `needs_input`, else some question) and only reads ran. */
const asksUser: ExpectCheck<'asks_user'> = (_flag, view) => {
  const { trace, reply, succeeded, context } = view;
  const asked =
    trace.questions.length > 0
      ? trace.questions.every((question) => reply.includes(question))
      : reply.includes('?');
  return [
    verdict(
      'asks the user',
      asked && succeeded.every((tool) => context.effects[tool] === 'read'),
      replyReason(view),
    ),
  ];
};

const noDuplicateCalls: ExpectCheck<'no_duplicate_calls'> = (_flag, { trace }) => {
  const duplicates = trace.calls.filter((call) => call.skipped === 'duplicate');
  return [
    verdict(
      'never repeats an identical call',
      duplicates.length === 0,
      `${duplicates.length} identical calls`,
    ),
  ];
};

/** The status the model acts on at each step: the turn's block, or the latest refresh result. */
const statusBlock: ExpectCheck<'status_block'> = (entries, { trace, steps }) => {
  const seen = [trace.connectorStatus, ...steps.map((step) => statusViewsOf(step.prompt).views.at(-1))];
  const fieldOf = (view: (typeof seen)[number], id: string, key: string) =>
    (view?.[id] as Record<string, unknown> | undefined)?.[key];
  return Object.entries(entries).flatMap(([id, fields]) =>
    Object.entries(fields).map(([key, value]) => {
      const wrong = seen.findIndex(
        (view) => view === undefined || JSON.stringify(fieldOf(view, id, key)) !== JSON.stringify(value),
      );
      return verdict(
        `<connector_status> shows ${id}.${key} = ${JSON.stringify(value)} on every step`,
        wrong < 0,
        `at ${atStep(wrong)}: ${id}: ${JSON.stringify(seen[wrong]?.[id])}`,
      );
    }),
  );
};

const envelopes: ExpectCheck<'envelopes'> = (checks, view) =>
  checks.flatMap(({ tool, fields = [], in_reply: inReply = [], ...wanted }) => {
    const calls = view.trace.calls.filter((call) => call.toolName === tool);
    const match = calls.find((call) =>
      Object.entries(wanted).every(
        ([key, value]) => JSON.stringify(envelopeField(call, key)) === JSON.stringify(value),
      ),
    );
    return [
      verdict(
        `${tool} returned ${JSON.stringify(wanted)}`,
        match !== undefined,
        `envelopes: ${JSON.stringify(calls.map((call) => call.envelope))}`,
      ),
      ...fields.map((field) =>
        verdict(
          `${tool} envelope carries ${field}`,
          envelopeField(match, field) !== undefined,
          `envelope: ${JSON.stringify(match?.envelope)}`,
        ),
      ),
      ...inReply.map((field) =>
        verdict(
          `reply gives the envelope's ${field}`,
          envelopeField(match, field) !== undefined &&
            view.reply.includes(String(envelopeField(match, field))),
          replyReason(view),
        ),
      ),
    ];
  });

const requested: ExpectCheck<'requested'> = (lines, { turn }) =>
  lines.map((line) =>
    verdict(
      `the service received ${line}`,
      (turn.requests ?? []).some((request) => requestLine(request) === line),
      `requests: ${(turn.requests ?? []).map(requestLine).join(', ') || 'none'}`,
    ),
  );

const serviceAborted: ExpectCheck<'service_aborted'> = (wanted, { turn }) => {
  const requests = turn.requests ?? [];
  const aborted = requests.filter((request) => request.aborted === true);
  return [
    verdict(
      `${wanted} request(s) aborted at the service`,
      turn.requests !== undefined && aborted.length === wanted,
      `${aborted.length} of ${requests.length} aborted: ${requests.map((request) => `${requestLine(request)}${request.aborted ? ' (aborted)' : ' (answered)'}`).join(', ') || 'none'}`,
    ),
  ];
};

/** What reached an MCP server: the calls it received, counted by the server itself (`mcp:`). */
const serverCalls: ExpectCheck<'server_calls'> = (counts, { turn }) =>
  Object.entries(counts).map(([tool, count]) => {
    const received = turn.serverCalls?.[tool] ?? 0;
    return verdict(
      `the MCP server received ${tool} ${count} time(s)`,
      turn.serverCalls !== undefined && received === count,
      `received ${received} time(s) (${JSON.stringify(turn.serverCalls ?? null)})`,
    );
  });

/**
 * Every name the model API would receive, on every model call: what OpenAI, Anthropic and Google
 * accept. A single name outside it makes the provider refuse the whole request.
 */
const modelToolNamesValid: ExpectCheck<'model_tool_names_valid'> = (_flag, { turn }) => {
  const offered = turn.modelToolNames ?? [];
  const refused = [...new Set(offered.flat().filter((name) => !/^[a-zA-Z0-9_-]{1,64}$/.test(name)))];
  return [
    verdict(
      'every tool name offered to the model matches ^[a-zA-Z0-9_-]{1,64}$',
      offered.length > 0 && refused.length === 0,
      offered.length === 0 ? 'no model call was recorded' : `offered ${refused.join(', ')}`,
    ),
  ];
};

const noServiceRequests: ExpectCheck<'no_service_requests'> = (_flag, { turn }) => [
  verdict(
    'no request reached the service',
    turn.requests !== undefined && turn.requests.length === 0 && turn.unhandled?.length === 0,
    `requests: ${[...(turn.requests ?? []), ...(turn.unhandled ?? [])].map(requestLine).join(', ')}`,
  ),
];

const modelSteps: ExpectCheck<'model_steps'> = (wanted, { steps }) => [
  verdict(`${wanted} model call(s)`, steps.length === wanted, `${steps.length} model call(s)`),
];

const temperatures: ExpectCheck<'temperatures'> = (wanted, { turn }) => [
  verdict(
    `model calls at temperatures ${JSON.stringify(wanted)}`,
    JSON.stringify(turn.temperatures) === JSON.stringify(wanted),
    `temperatures ${JSON.stringify(turn.temperatures)}`,
  ),
];

const statusUnchanged: ExpectCheck<'status_unchanged'> = (_flag, { turn }) => [
  verdict('connector status unchanged', !turn.statusChanged, 'status changed during the turn'),
];

/** The check of every `expect` key: a key of the format that no check reads does not compile. */
export const expectChecks: { readonly [Key in keyof ExpectBlock]-?: ExpectCheck<Key> } = {
  exposed_include: exposedInclude,
  exposed_exclude: exposedExclude,
  called,
  ran,
  service_requests: serviceRequests,
  called_ok: calledOk,
  not_called: notCalled,
  no_tool_calls: noToolCalls,
  no_side_effects: noSideEffects,
  args,
  reply_includes: replyIncludes,
  reply_excludes: replyExcludes,
  outcome,
  asks_user: asksUser,
  no_duplicate_calls: noDuplicateCalls,
  status_block: statusBlock,
  envelopes,
  requested,
  service_aborted: serviceAborted,
  server_calls: serverCalls,
  model_tool_names_valid: modelToolNamesValid,
  no_service_requests: noServiceRequests,
  model_steps: modelSteps,
  memory: memoryChecks,
  results_for_model: resultsForModel,
  temperatures,
  status_unchanged: statusUnchanged,
  ...gateChecks,
};

/** The `expect` keys in the order their checks run (and the report lists them). */
export const expectCheckOrder = Object.keys(expectChecks) as ReadonlyArray<keyof ExpectBlock>;
