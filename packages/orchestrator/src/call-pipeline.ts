import { loadConnectorState, type SubjectState } from '@patchbay/connector/ports';
import { type Envelope, failure, redactString } from '@patchbay/envelope';
import {
  bindConnectionsToOrigins,
  type ConnectorOrigins,
  exceedsDepth,
  expandScopes,
  maxArgumentDepth,
  tooDeepMessage,
  toolAvailability,
} from '@patchbay/helpers';
import { approvalGate } from './approval-gate.js';
import {
  type CallState,
  cancelledBeforeStart,
  errorMessage,
  type GateContext,
  noSecrets,
  secretsFor,
} from './gate-context.js';
import { type Instruments, SpanStatusCode } from './observability.js';
import { reopenProposal } from './proposal-checks.js';
import type { ToolEntry } from './registry.js';
import { type RunGrant, runAgent } from './run-agent.js';
import { buildStatusSnapshot } from './status-snapshot.js';

/** A step either passes something on or answers the call. */
type Step<T> = { ok: true; value: T } | { ok: false; envelope: Envelope };

/** What the pipeline answered, with what it learned on the way (for logs and spans). */
interface PipelineResult {
  envelope: Envelope;
  entry?: ToolEntry;
  secrets: readonly string[];
}

/** Outcomes that are part of the normal conversation (ask the user, fix arguments, wait for a person): logged at info. */
// Stryker disable ArrayDeclaration,StringLiteral: only an outcome's log level depends on this set; log levels and texts are not an interface.
const expectedOutcomes: ReadonlySet<string> = new Set([
  'needs_input',
  'invalid_arguments',
  'approval_required',
]);
// Stryker restore ArrayDeclaration,StringLiteral

/** What an agent's own tool is given: no credentials, no scopes. */
const noGrant: RunGrant = Object.freeze({});

function disabledTool(): Envelope {
  return failure('disabled_by_admin', { userMessage: 'This tool is not available.' });
}

/** Routing: the tool exists, its agent is up, and the caller has not given up yet. */
export function routeStep(
  context: GateContext,
  call: Pick<CallState, 'name' | 'signal'>,
): Step<ToolEntry> & { entry?: ToolEntry } {
  const entry = context.registry.lookup(call.name);
  if (!entry) {
    return {
      ok: false,
      envelope: failure('tool_unavailable', { userMessage: `There is no tool named ${call.name}.` }),
    };
  }
  if (entry.record.state !== 'up') {
    return {
      ok: false,
      entry,
      envelope: failure('tool_unavailable', {
        userMessage: `The tool ${call.name} is not available right now.`,
      }),
    };
  }
  if (call.signal?.aborted) {
    return {
      ok: false,
      entry,
      envelope: cancelledBeforeStart(),
    };
  }
  return { ok: true, value: entry };
}

/** An MCP server's or a function's own tool: no connector and no `requires`, so only the admin switch applies. */
function isOwnTool(tool: ToolEntry['tool']): boolean {
  return tool.connectorId === undefined && tool.requires.length === 0;
}

/**
 * The subject's state as far as one agent's admin switch goes, read for that agent alone (no
 * snapshot on this path, which every MCP call through the gateway takes). Whether the agent's id is
 * in `disabledConnectorIds` is all that is read, so the whole state is not narrowed first: what
 * narrowing keeps holds the id exactly when the whole list does. Not async: the gate awaits the
 * source's own promise, one step fewer per call.
 */
function loadAgentPolicy(context: GateContext, entry: ToolEntry, subject: string): Promise<SubjectState> {
  const { statusSource } = context;
  const agentId = entry.record.agent.id;
  return statusSource.loadConnectors
    ? statusSource.loadConnectors(subject, [agentId])
    : statusSource.load(subject);
}

/** The configured origins of `ids` (connectors the orchestrator was not given have none). */
function originsOf(context: GateContext, ids: ReadonlySet<string>): ConnectorOrigins[] {
  const origins: ConnectorOrigins[] = [];
  for (const id of ids) {
    // Own keys only: a connector id such as `constructor` must not find Object.prototype's.
    if (Object.hasOwn(context.origins, id)) origins.push(context.origins[id]!);
  }
  return origins;
}

/** Status of an agent's own tool: only its admin switch, read from `loadAgentPolicy`'s state. */
function ownToolStatus(state: SubjectState, entry: ToolEntry): Step<RunGrant> {
  return state.disabledConnectorIds.includes(entry.record.agent.id)
    ? { ok: false, envelope: disabledTool() }
    : { ok: true, value: noGrant };
}

/**
 * Status: connector connected (with credentials verified against the origin it is configured for),
 * enabled, not rate limited, scopes granted, `requires` met; yields the credentials.
 */
export async function statusStep(
  context: GateContext,
  entry: ToolEntry,
  subject: string,
): Promise<Step<RunGrant>> {
  const { tool } = entry;
  if (isOwnTool(tool)) return ownToolStatus(await loadAgentPolicy(context, entry, subject), entry);
  const ids = new Set(tool.requires);
  if (tool.connectorId !== undefined) ids.add(tool.connectorId);
  // Only what this call needs is read (and decrypted), not every connection the subject has: its
  // connector and `requires`, and, for an MCP server or function, the agent's own policy.
  const wanted = tool.connectorId === undefined ? [...ids, entry.record.agent.id] : [...ids];
  const loaded = await loadConnectorState(context.statusSource, subject, wanted);
  // Admin policy covers every agent, not only connectors: an MCP server or a function an admin
  // disabled (`patchbay disable <server>`) runs nothing, whoever asks and however it was offered.
  if (tool.connectorId === undefined && loaded.disabledConnectorIds.includes(entry.record.agent.id)) {
    return { ok: false, envelope: disabledTool() };
  }
  // A connection verified against another origin than its connector's configured one loses its
  // credentials here, before anything can hand them to a tool. Only the origins of the connectors
  // this call reads are bound (`loaded` holds no other connection): a per-call cost of its own
  // connectors, not of every connector registered (issue 32).
  const state = bindConnectionsToOrigins(loaded, originsOf(context, ids));
  const at = context.now();
  const snapshot = buildStatusSnapshot(subject, state, ids, at);
  const availability = toolAvailability(tool, snapshot, { setupUrls: context.setupUrls, now: at });
  if (!availability.available) return { ok: false, envelope: availability.envelope };
  if (tool.connectorId === undefined) return { ok: true, value: {} };
  const connection = state.connections.find((candidate) => candidate.connectorId === tool.connectorId);
  return {
    ok: true,
    value: {
      // Stryker disable next-line OptionalChaining: `toolAvailability` said available, so the connector is connected: it has a connection and a scope list.
      credentials: connection?.credentials ?? {},
      // Stryker disable next-line OptionalChaining,ArrayDeclaration: `toolAvailability` said available, so the connector is connected: it has a connection and a scope list.
      scopes: expandScopes(snapshot.connectors[tool.connectorId]?.scopes ?? [], tool.impliedScopes),
    },
  };
}

/**
 * Validation: a depth limit first (validators recurse, so a value nested thousands of levels deep
 * would overflow the stack), then the agent's own (zod) validation, else the tool's JSON Schema;
 * yields the value to pass on.
 */
export function validateStep(context: GateContext, entry: ToolEntry, args: unknown): Step<unknown> {
  if (exceedsDepth(args, maxArgumentDepth)) {
    return {
      ok: false,
      envelope: failure('invalid_arguments', {
        connector: entry.tool.connectorId,
        issues: [{ path: '(input)', message: tooDeepMessage(maxArgumentDepth) }],
        userMessage: tooDeepMessage(maxArgumentDepth),
      }),
    };
  }
  const { agent } = entry.record;
  if (agent.validate) return agent.validate(entry.tool.name, args);
  return context.validator.validate(entry.validationKey, entry.tool.inputJsonSchema, args, {
    tool: entry.tool.name,
    connector: entry.tool.connectorId,
  });
}

/** Write-back: records what a result says about the connector, so the next turn's status shows it. */
export async function writeBackStep(
  context: GateContext,
  call: CallState,
  entry: ToolEntry,
  envelope: Envelope,
): Promise<void> {
  if (envelope.ok) return;
  const { log, statusSource } = context;
  const connectorId = entry.tool.connectorId ?? envelope.connector;
  if (connectorId === undefined) return;
  try {
    if (envelope.error_type === 'rate_limited') {
      const seconds = envelope.retry_after_s ?? context.limits.defaultRetryAfterS;
      const until = new Date(context.now().getTime() + seconds * 1000).toISOString();
      await statusSource.markRateLimited(call.subject, connectorId, until);
      // Stryker disable next-line all: only logs; log texts are not an interface (Observability in the README promises redaction only).
      log.info(
        // Stryker disable next-line ObjectLiteral: log texts are not an interface (Observability in the README promises redaction only).
        { correlation_id: call.correlationId, connector: connectorId, until },
        // Stryker disable next-line StringLiteral: log texts are not an interface (Observability in the README promises redaction only).
        'connector marked rate limited',
      );
    } else if (envelope.error_type === 'invalid_credentials') {
      await statusSource.markInvalidCredentials(call.subject, connectorId, envelope.user_message);
      // Stryker disable next-line all: only logs; log texts are not an interface (Observability in the README promises redaction only).
      log.info(
        // Stryker disable next-line ObjectLiteral: log texts are not an interface (Observability in the README promises redaction only).
        { correlation_id: call.correlationId, connector: connectorId },
        // Stryker disable next-line StringLiteral: log texts are not an interface (Observability in the README promises redaction only).
        'connector credentials marked invalid',
      );
    }
    // Stryker disable BlockStatement: the catch only logs (the failure is swallowed either way); log texts are not an interface.
  } catch (error) {
    // Stryker restore BlockStatement
    // Stryker disable next-line all: only logs; log texts are not an interface (Observability in the README promises redaction only).
    log.error(
      // Stryker disable next-line ObjectLiteral: log texts are not an interface (Observability in the README promises redaction only).
      {
        correlation_id: call.correlationId,
        connector: connectorId,
        error: redactString(errorMessage(error)),
      },
      // Stryker disable next-line StringLiteral: log texts are not an interface (Observability in the README promises redaction only).
      'status write-back failed',
    );
  }
}

/** The steps in order: routing → status → validation → approval → run → write-back. */
async function pipeline(context: GateContext, call: CallState): Promise<PipelineResult> {
  const route = routeStep(context, call);
  if (!route.ok)
    return { envelope: route.envelope, ...(route.entry ? { entry: route.entry } : {}), secrets: noSecrets };
  const entry = route.value;
  // An approval `approveAndExecute` checked a moment ago, for this same routed entry: the status it
  // read then stands (read once per approval, not twice). An agent's own tool reads its admin switch
  // here, without `statusStep`'s promise: every MCP call through the gateway takes this path.
  const status: Step<RunGrant> =
    call.checked?.entry === entry
      ? { ok: true, value: call.checked.grant }
      : isOwnTool(entry.tool)
        ? ownToolStatus(await loadAgentPolicy(context, entry, call.subject), entry)
        : await statusStep(context, entry, call.subject);
  if (!status.ok) return { envelope: status.envelope, entry, secrets: noSecrets };
  const grant = status.value;
  const secrets = secretsFor(context, entry.tool.connectorId, grant.credentials);
  const validation = validateStep(context, entry, call.args);
  if (!validation.ok) return { envelope: validation.envelope, entry, secrets };
  if (entry.needsApproval || call.proposal) {
    const refusal = await approvalGate(context, call, entry);
    if (refusal) return { envelope: refusal, entry, secrets };
  }
  if (call.signal?.aborted) {
    // Cancelled while the gate waited on its stores: the call never started, so the proposal is not
    // used up; it goes back to pending and a person approves it again (never silently re-armed).
    if (call.consumed) await reopenProposal(context, call.consumed, 'executed', call.correlationId);
    call.consumed = undefined;
    return { envelope: cancelledBeforeStart(), entry, secrets };
  }
  const envelope = await runAgent(context, call, entry, validation.value, grant, secrets);
  // A success records nothing: no promise step for it.
  if (!envelope.ok) await writeBackStep(context, call, entry, envelope);
  return { envelope, entry, secrets };
}

/**
 * Runs a call through the pipeline inside a span, with a metric and one log line per call. Never
 * throws: a failure inside the gate itself is an `internal_error` envelope.
 */
export async function runCall(
  context: GateContext,
  instruments: Instruments,
  call: CallState,
): Promise<Envelope> {
  const { log } = context;
  const started = performance.now();
  const span = instruments.tracer.startSpan('patchbay.tool.execute', {
    attributes: { 'patchbay.tool': call.name, 'patchbay.correlation_id': call.correlationId },
  });
  // Log and span fields are built only when something will read them: this runs on every call.
  if (log.isLevelEnabled('debug')) {
    log.debug(
      { correlation_id: call.correlationId, tool: call.name, subject: call.subject },
      'tool call received',
    );
  }
  let result: PipelineResult;
  try {
    result = await pipeline(context, call);
  } catch (error) {
    log.error(
      { correlation_id: call.correlationId, tool: call.name, error: redactString(errorMessage(error)) },
      'tool call failed inside the orchestrator',
    );
    result = { envelope: failure('internal_error', {}), secrets: noSecrets };
  }
  const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
  const { envelope } = result;
  const outcome = envelope.ok ? 'ok' : envelope.error_type;
  const final: Envelope = {
    ...envelope,
    meta: {
      ...(envelope.meta ?? {}),
      correlation_id: call.correlationId,
      tool: call.name,
      duration_ms: durationMs,
    },
  };
  const attributes = { tool: call.name, outcome };
  instruments.calls.add(1, attributes);
  instruments.duration.record(durationMs, attributes);
  if (span.isRecording()) {
    span.setAttributes({
      'patchbay.outcome': outcome,
      'patchbay.duration_ms': durationMs,
      ...(result.entry ? { 'patchbay.agent': result.entry.record.agent.id } : {}),
      ...(result.entry?.tool.connectorId !== undefined
        ? { 'patchbay.connector': result.entry.tool.connectorId }
        : {}),
    });
    if (!envelope.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
  }
  span.end();
  const level = envelope.ok || expectedOutcomes.has(envelope.error_type) ? 'info' : 'warn';
  if (log.isLevelEnabled(level)) {
    const line = {
      correlation_id: call.correlationId,
      tool: call.name,
      agent: result.entry?.record.agent.id,
      outcome,
      duration_ms: durationMs,
      ...(envelope.ok ? {} : { user_message: redactString(envelope.user_message, result.secrets) }),
    };
    if (envelope.ok) log.info(line, 'tool call succeeded');
    else if (level === 'info') log.info(line, 'tool call answered without running');
    else log.warn(line, 'tool call failed');
  }
  return final;
}
