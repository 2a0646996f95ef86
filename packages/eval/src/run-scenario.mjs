// Runs one scenario through the real Patchbay turn runner: the config's connectors (or, with
// `packages:`, the connectors it names, against the config's fake service), an in-memory status
// source set up as the scenario says, the orchestrator gate, and one runTurn per user turn.
import { createOrchestrator } from '@patchbay/orchestrator';
import { buildSystemPrompt, createInMemoryStatusSource } from '@patchbay/protocol';
import { createInMemoryThreadStore, runTurn } from '@patchbay/turn';
import { createAdversary } from './agents/adversaries.mjs';
import { callGate, gateCallers, mcpHostFor } from './agents/gate-caller.mjs';
import { credentialsFor, evalCredentials, minSecretLength } from './credentials.mjs';

export const evalSubject = 'eval-user';
const defaultIdentity = 'You are the team assistant. Be brief and accurate.';
// A turn that outlives this is cut off (its calls end `cancelled`), so a missing deadline (an MCP
// call that hangs with no timeout) fails its scenario instead of hanging the suite.
const turnGuardMs = 120_000;

export { evalCredentials, evalSecretPattern } from './credentials.mjs';

/**
 * Hands out credentials with the config's `credentials` function, keeping every secret value handed
 * out in `secrets` (what the checks search for); a value too short to search for stops the run.
 */
function credentialIssuer(credentialsOf, secrets) {
  return (connector) => {
    const { credentials, secrets: handed, problems } = credentialsFor(connector, credentialsOf);
    if (problems.length > 0) throw new Error(`the config's credentials function: ${problems.join('; ')}`);
    for (const secret of handed) secrets.add(secret);
    return credentials;
  };
}

function applyStatus(source, connectors, spec = {}, at, credentials) {
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
      source.connect(evalSubject, id, { credentials: credentials(connector), scopes, ...verified });
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

/** The connectors with every tool logging `{ tool, input }` to `log` when its code runs. */
function logged(connectors, log) {
  return connectors.map((connector) => ({
    ...connector,
    tools: connector.tools.map((tool) => ({
      ...tool,
      execute: (input, context) => {
        log.push({ tool: tool.name, input });
        return tool.execute(input, context);
      },
    })),
  }));
}

/** The connectors of one scenario: those `packages:` names, else the config's (with its fixtures). */
function connectorsOf(scenario, config) {
  if (scenario.packages)
    return scenario.packages.map((id) => {
      const connector = config.packages?.[id];
      if (!connector)
        throw new Error(
          `no connector "${id}" in the config's packages (known: ${Object.keys(config.packages ?? {}).join(', ') || 'none'})`,
        );
      return connector;
    });
  return typeof config.connectors === 'function'
    ? config.connectors({ fixtures: scenario.fixtures ?? {}, scenarioId: scenario.id })
    : config.connectors;
}

/** The system prompt of one turn, from the config's `systemPrompt` or `identity`. */
function systemPromptOf(config, catalog) {
  const identity = config.identity ?? defaultIdentity;
  if (typeof config.systemPrompt === 'string') return config.systemPrompt;
  if (typeof config.systemPrompt === 'function') return config.systemPrompt({ identity, catalog });
  return buildSystemPrompt({ identity, catalog });
}

/**
 * Runs a scenario with a model on a config's connectors, system prompt and extensions; returns the
 * last reply and every turn's reply, trace and effects (and, for scenarios with `packages:` and a
 * fake service, the requests that reached it).
 */
export async function runScenario(scenario, model, config) {
  if (!scenario.packages || !config.service) return runTurns(scenario, model, undefined, config);
  // Offline agents never talk HTTP, so any request no route answers is a failure; a live model's
  // own API calls pass, while unanswered requests to the services still fail.
  const strict = String(model.provider).startsWith('patchbay.');
  return config.service.run({ routes: scenario.http ?? {}, strict }, (service) =>
    runTurns(scenario, model, service, config),
  );
}

function extensionFor(config, key, scenario) {
  if (!config[key]) throw new Error(`scenario ${scenario.id} uses \`${key}:\` but the config has no ${key}`);
  return config[key];
}

async function runTurns(scenario, model, service, config) {
  const sideEffects = [];
  // Every secret value this run hands out: the checks look for these very values.
  const secrets = new Set();
  const credentials = credentialIssuer(config.credentials ?? evalCredentials, secrets);
  const connectors = logged(connectorsOf(scenario, config), sideEffects);
  const statusSource = createInMemoryStatusSource();
  applyStatus(statusSource, connectors, scenario.connectors, scenario.turns[0].at, credentials);
  // One scenario clock for the turn runner and the orchestrator's gate: with the wall clock, the gate
  // would judge a scenario's rate limit by the day the suite runs rather than by the scenario's time.
  let scenarioTime = new Date(scenario.turns[0].at);
  const now = () => new Date(scenarioTime);
  const orchestrator = createOrchestrator({ statusSource, connectors, now });
  if (scenario.mcp) {
    // The MCP extension may hand its servers credentials too (`secret_env`): it says which.
    const registered = extensionFor(config, 'mcp', scenario).register(orchestrator, scenario.mcp);
    for (const secret of registered?.secrets ?? []) {
      if (typeof secret !== 'string' || secret.length < minSecretLength)
        throw new Error(
          `the config's mcp.register returned a secret shorter than ${minSecretLength} characters: the leak checks could not tell it from ordinary text`,
        );
      secrets.add(secret);
    }
  }
  // The gate callers call the gate itself (agents/gate-caller.mjs), with the config's agents for them.
  const directCaller = gateCallers.has(scenario.adversary);
  // `cancel_while_reading`: a one-shot hook that runs once the gate's next status read returned.
  let afterStatusRead;
  if (directCaller)
    for (const method of ['load', 'loadConnectors']) {
      const read = statusSource[method]?.bind(statusSource);
      if (read)
        statusSource[method] = async (...args) => {
          const state = await read(...args);
          const hook = afterStatusRead;
          afterStatusRead = undefined;
          hook?.();
          return state;
        };
    }
  if (directCaller)
    for (const agent of config.callers?.agents?.({ log: sideEffects }) ?? []) orchestrator.register(agent);
  const host =
    scenario.adversary === 'mcp-host'
      ? mcpHostFor(extensionFor(config, 'callers', scenario).gateway, {
          orchestrator,
          connectors,
          statusSource,
          subject: evalSubject,
          now,
        })
      : undefined;
  const evalMemory = scenario.memory
    ? await extensionFor(config, 'memory', scenario).create(orchestrator, evalSubject, scenario.memory)
    : undefined;
  await orchestrator.start();
  const threadStore = createInMemoryThreadStore();
  // A scenario that names an adversary tests the product: the adversary plays the model whatever
  // model is under test. Its mid-turn status changes land between two model steps; its `cancel`
  // fires the turn's signal (the user cancelled) while it answers, `cancel_after` while the step's
  // calls run, as soon as the named tool's code runs (every tool logs its run in `sideEffects`).
  const onSet = (spec) =>
    applyStatus(statusSource, connectors, spec, scenarioTime.toISOString(), credentials);
  let cancelTurn;
  let cancelAfter;
  const logRun = sideEffects.push.bind(sideEffects);
  sideEffects.push = (...runs) => {
    const count = logRun(...runs);
    if (runs.some((run) => run.tool === cancelAfter)) cancelTurn?.abort();
    return count;
  };
  const playing = scenario.adversary
    ? createAdversary(scenario, {
        onSet,
        onCancel: () => cancelTurn?.abort(),
        onCancelAfter: (tool) => {
          cancelAfter = tool;
        },
      })
    : model;
  // What each model call was asked for beside the prompt: the temperature (a retry raises it) and
  // the tool choice.
  let temperatures = [];
  let toolChoices = [];
  const agent = Object.create(playing);
  agent.doGenerate = (options) => {
    temperatures.push(options.temperature ?? null);
    toolChoices.push(options.toolChoice ?? null);
    return playing.doGenerate(options);
  };
  agent.doStream = (options) => {
    temperatures.push(options.temperature ?? null);
    toolChoices.push(options.toolChoice ?? null);
    return playing.doStream(options);
  };
  // `runners:` copies run the same turn through another loop (streamTurn, a framework's own).
  const runTurnOf = scenario.runner ? config.runners[scenario.runner] : runTurn;
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
      if (turn.set) applyStatus(statusSource, connectors, turn.set, turn.at, credentials);
      if (turn.http) service?.use(turn.http);
      playing.startTurn?.(index);
      temperatures = [];
      toolChoices = [];
      const statusBefore = await statusSource.load(evalSubject);
      // The catalog lists what this deployment offers the user: a connector an admin disabled is
      // left out, as the status block leaves it out (naming it would invite the model to offer it).
      const disabled = new Set(statusBefore.disabledConnectorIds ?? []);
      const systemPrompt = systemPromptOf(
        config,
        connectors.filter((connector) => !disabled.has(connector.id)),
      );
      const cancel = new AbortController();
      cancelTurn = cancel;
      cancelAfter = undefined;
      // A gate caller plays its script instead of a turn (no model, no runTurn).
      const play = directCaller
        ? async () => ({
            reply: '',
            trace: await callGate(turn.script, {
              orchestrator,
              statusSource,
              subject: evalSubject,
              onSet,
              onStatusRead: (hook) => {
                afterStatusRead = hook;
              },
              turnId: `${scenario.id}:${index}`,
              host,
            }),
          })
        : runTurnOf;
      const result = await play({
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
        signal: AbortSignal.any([AbortSignal.timeout(turnGuardMs), cancel.signal]),
        ...(scenario.turn_options?.needs_input
          ? { retry: { needsInput: scenario.turn_options.needs_input } }
          : {}),
        ...(scenario.turn_options?.max_result_chars
          ? { maxResultChars: scenario.turn_options.max_result_chars }
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
        temperatures,
        toolChoices,
        // What the product keeps of the turn: the stored thread (the transcript).
        transcript: JSON.stringify(result.thread?.messages ?? []),
        ...(service ? service.take() : {}),
      });
    }
  } finally {
    await host?.close();
    await orchestrator.stop();
    await evalMemory?.close();
  }
  return {
    reply: turns.at(-1)?.reply ?? '',
    turns,
    // What the leak checks search for. Never written to a results file (rowOf and the promptfoo
    // provider leave it out): a config may hand out values it would not want on disk.
    secrets: [...secrets],
    effects: effectsOf(connectors),
    // How the reply may name each connector (the disabled-connector check looks for both).
    names: Object.fromEntries(connectors.map((connector) => [connector.id, connector.name ?? connector.id])),
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
