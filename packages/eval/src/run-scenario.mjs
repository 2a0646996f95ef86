// Runs one scenario through the real Patchbay turn runner: eval stand-in connectors (or, with
// `packages:`, the real connector packages against the msw service server), an in-memory status
// source set up as the scenario says, the orchestrator gate, and one runTurn per user turn.
import { createOrchestrator } from '@patchbay/orchestrator';
import { buildSystemPrompt, createInMemoryStatusSource } from '@patchbay/protocol';
import { createInMemoryThreadStore, runTurn } from '@patchbay/turn';
import { createAdversary } from '../agents/adversaries.mjs';
import { createEvalConnectors } from '../connectors/eval-connectors.mjs';
import { createEvalMemory, registerMcpServers } from '../connectors/mcp-servers.mjs';
import { createPackageConnectors } from '../connectors/package-connectors.mjs';
import { withServiceServer } from '../connectors/service-server.mjs';

export const evalSubject = 'eval-user';
const identity = 'You are Relay, the team assistant of the Patchbay evals. Be brief and accurate.';
// A turn that outlives this is cut off (its calls end `cancelled`), so a missing deadline (an MCP
// call that hangs with no timeout) fails its scenario instead of hanging the suite.
const turnGuardMs = 120_000;

// Fields a service reads back from the credentials (a path, a login): the fixtures' values. Every
// secret field gets `eval-<connector>-<field>-0001`, the pattern the checks look for in every prompt.
const readableFields = {
  sms: { account_sid: 'AC00000000000000000000000000000000' },
  jira: { email: 'eval@patchbay.test' },
};

/** The credentials the eval connects a connector with. */
export function evalCredentials(connector) {
  const fields = connector.auth.fields ?? [];
  if (fields.length === 0) return { token: `eval-${connector.id}-token-0001` };
  return Object.fromEntries(
    fields.map((field) => [
      field.name,
      readableFields[connector.id]?.[field.name] ?? `eval-${connector.id}-${field.name}-0001`,
    ]),
  );
}

/** Matches any secret credential value the eval hands out (see {@link evalCredentials}). */
export const evalSecretPattern = /eval-[a-z]+-[a-z_]+-0001/;

function applyStatus(source, connectors, spec = {}, at) {
  for (const [id, raw] of Object.entries(spec)) {
    const entry = typeof raw === 'string' ? { status: raw } : raw;
    const connector = connectors.find((candidate) => candidate.id === id);
    source.enable(id, evalSubject);
    source.setRateLimit(evalSubject, id, undefined);
    source.disconnect(evalSubject, id);
    const scopes = entry.scopes ?? connector.auth.scopes.map((scope) => scope.name);
    // As `patchbay connect` does, the connection records the origin it was verified against, so a
    // connector without a default origin (Jira: every site is its own) is bound like a real one.
    const verified = connector.origin === undefined ? {} : { verifiedOrigin: connector.origin };
    const connect = () =>
      source.connect(evalSubject, id, { credentials: evalCredentials(connector), scopes, ...verified });
    if (entry.status === 'connected') connect();
    else if (entry.status === 'invalid_credentials') {
      connect();
      source.markInvalidCredentials(evalSubject, id, entry.error ?? 'The token was revoked');
    } else if (entry.status === 'rate_limited') {
      connect();
      source.setRateLimit(
        evalSubject,
        id,
        new Date(new Date(at).getTime() + (entry.retry_after_s ?? 600) * 1000),
      );
    } else if (entry.status === 'disabled_by_admin') {
      connect();
      source.disable(id, evalSubject);
    }
  }
}

/**
 * Runs a scenario with a model; returns the last reply and every turn's reply, trace and effects
 * (and, for scenarios on the real connector packages, the requests that reached the service).
 */
export async function runScenario(scenario, model) {
  if (!scenario.packages) return runTurns(scenario, model, undefined);
  // Offline agents never talk HTTP, so any request no route answers is a failure; a live model's
  // own API calls pass, while unanswered requests to the services still fail.
  const strict = String(model.provider).startsWith('patchbay.');
  return withServiceServer({ routes: scenario.http ?? {}, strict }, (service) =>
    runTurns(scenario, model, service),
  );
}

async function runTurns(scenario, model, service) {
  const sideEffects = [];
  const connectors = scenario.packages
    ? createPackageConnectors(scenario.packages, sideEffects)
    : createEvalConnectors(scenario.fixtures ?? {}, sideEffects);
  const statusSource = createInMemoryStatusSource();
  applyStatus(statusSource, connectors, scenario.connectors, scenario.turns[0].at);
  // One scenario clock for the turn runner and the orchestrator's gate: with the wall clock, the gate
  // would judge a scenario's rate limit by the day the suite runs rather than by the scenario's time.
  let scenarioTime = new Date(scenario.turns[0].at);
  const now = () => new Date(scenarioTime);
  const orchestrator = createOrchestrator({ statusSource, connectors, now });
  registerMcpServers(orchestrator, scenario.mcp);
  const evalMemory = scenario.memory
    ? await createEvalMemory(orchestrator, evalSubject, scenario.memory)
    : undefined;
  await orchestrator.start();
  const threadStore = createInMemoryThreadStore();
  // A scenario that names an adversary tests the product: the adversary plays the model whatever
  // model is under test. Its mid-turn status changes land between two model steps.
  const agent = scenario.adversary
    ? createAdversary(scenario, {
        onSet: (spec) => applyStatus(statusSource, connectors, spec, scenarioTime.toISOString()),
      })
    : model;
  const turns = [];
  let thread;
  try {
    const memory = await evalMemory?.open();
    for (const [index, turn] of scenario.turns.entries()) {
      scenarioTime = new Date(turn.at);
      // A new thread is a new session: the previous one ends first (memory's final flush).
      const threadOfTurn = turn.thread ?? scenario.id;
      if (evalMemory && thread !== undefined && threadOfTurn !== thread) await evalMemory.endSession(thread);
      thread = threadOfTurn;
      if (turn.memory) await evalMemory.state(turn.memory);
      if (turn.set) applyStatus(statusSource, connectors, turn.set, turn.at);
      if (turn.http) service.use(turn.http);
      agent.startTurn?.(index);
      const statusBefore = await statusSource.load(evalSubject);
      // The catalog lists what this deployment offers the user: a connector an admin disabled is
      // left out, as the status block leaves it out (naming it would invite the model to offer it).
      const disabled = new Set(statusBefore.disabledConnectorIds ?? []);
      const systemPrompt = buildSystemPrompt({
        identity,
        catalog: connectors.filter((connector) => !disabled.has(connector.id)),
      });
      const result = await runTurn({
        model: agent,
        thread,
        message: turn.user,
        subject: evalSubject,
        orchestrator,
        connectors,
        statusSource,
        systemPrompt,
        threadStore,
        now,
        signal: AbortSignal.timeout(turnGuardMs),
        ...(scenario.turn_options?.needs_input
          ? { retry: { needsInput: scenario.turn_options.needs_input } }
          : {}),
        ...(memory ? { memory } : {}),
      });
      const statusAfter = await statusSource.load(evalSubject);
      turns.push({
        user: turn.user,
        reply: result.reply,
        trace: result.trace,
        sideEffects: sideEffects.splice(0),
        statusChanged: JSON.stringify(statusBefore) !== JSON.stringify(statusAfter),
        // What the product keeps of the turn: the stored thread (the transcript).
        transcript: JSON.stringify(result.thread?.messages ?? []),
        ...(service ? service.take() : {}),
      });
    }
  } finally {
    await orchestrator.stop();
    await evalMemory?.close();
  }
  return {
    reply: turns.at(-1)?.reply ?? '',
    turns,
    effects: effectsOf(connectors),
    owners: Object.fromEntries(
      connectors.flatMap((connector) => connector.tools.map((tool) => [tool.name, connector.id])),
    ),
  };
}

function effectsOf(connectors) {
  return Object.fromEntries(
    connectors.flatMap((connector) => connector.tools.map((tool) => [tool.name, tool.effect])),
  );
}
