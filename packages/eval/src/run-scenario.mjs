// Runs one scenario through the real Patchbay turn runner: the config's connectors (or, with
// `packages:`, the connectors it names, against the config's fake service), a status source set up
// as the scenario says (in memory, or with `store:` a real store of the config's: SQLite, Postgres),
// the orchestrator gate, and one runTurn per user turn (turns marked `with_next` at the same time).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createOrchestrator } from '@patchbay/orchestrator';
import { buildSystemPrompt, createInMemoryStatusSource } from '@patchbay/protocol';
import { createInMemoryThreadStore, runTurn } from '@patchbay/turn';
import { createAdversary } from './agents/adversaries.mjs';
import { callGate, gateCallers, mcpHostFor, mcpHttpHostFor } from './agents/gate-caller.mjs';
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

/**
 * How the harness sets a subject's status, whatever keeps it: the in-memory source's own setters, or
 * a store's (`saveConnection`, `disableConnector`, `markRateLimited`, … of @patchbay/store), so a
 * scenario on a store is set up as `patchbay connect` / `disable` would set it up.
 */
function statusControl(source, store, now) {
  if (!store)
    return {
      connect: async (subject, id, connection) => source.connect(subject, id, connection),
      disconnect: async (subject, id) => source.disconnect(subject, id),
      disable: async (id, subject) => source.disable(id, subject),
      enable: async (id, subject) => source.enable(id, subject),
      setRateLimit: async (subject, id, until) => source.setRateLimit(subject, id, until),
      markInvalidCredentials: (subject, id, error) => source.markInvalidCredentials(subject, id, error),
    };
  return {
    connect: (subject, id, { credentials, scopes, verifiedOrigin }) =>
      store.saveConnection(subject, {
        connectorId: id,
        credentials,
        scopes,
        verifiedAt: now().toISOString(),
        ...(verifiedOrigin === undefined ? {} : { verifiedOrigin }),
      }),
    disconnect: (subject, id) => store.deleteConnection(subject, id),
    disable: (id, subject) => store.disableConnector(id, subject),
    enable: (id, subject) => store.enableConnector(id, subject),
    setRateLimit: (subject, id, until) =>
      until === undefined
        ? store.clearRateLimit(subject, id)
        : store.markRateLimited(subject, id, new Date(until).toISOString()),
    markInvalidCredentials: (subject, id, error) => store.markInvalidCredentials(subject, id, error),
  };
}

/** Sets each connector of `spec` for every subject of the scenario, through `control`. */
async function applyStatus(control, subjects, connectors, spec = {}, at, credentials) {
  for (const subject of subjects)
    for (const [id, raw] of Object.entries(spec)) {
      const entry = typeof raw === 'string' ? { status: raw } : raw;
      const connector = connectors.find((candidate) => candidate.id === id);
      await control.enable(id, subject);
      await control.setRateLimit(subject, id, undefined);
      await control.disconnect(subject, id);
      const scopes = entry.scopes ?? connector.auth.scopes.map((scope) => scope.name);
      // As `patchbay connect` does, the connection records the origin it was verified against, so a
      // connector without a default origin (Jira: every site is its own) is bound like a real one.
      const verified = connector.origin === undefined ? {} : { verifiedOrigin: connector.origin };
      const connect = () =>
        control.connect(subject, id, { credentials: credentials(connector), scopes, ...verified });
      if (entry.status === 'connected') await connect();
      else if (entry.status === 'invalid_credentials') {
        await connect();
        await control.markInvalidCredentials(subject, id, entry.error ?? 'The token was revoked');
      } else if (entry.status === 'rate_limited') {
        await connect();
        await control.setRateLimit(
          subject,
          id,
          new Date(new Date(at).getTime() + (entry.retry_after_s ?? 600) * 1000),
        );
      } else if (entry.status === 'disabled_by_admin') {
        await connect();
        await control.disable(id, subject);
      }
    }
}

/** Every subject of a scenario: the default one and each a turn names (`turns[].subject`). */
const subjectsOf = (scenario) => [
  ...new Set([evalSubject, ...scenario.turns.map((turn) => turn.subject ?? evalSubject)]),
];

/** The turns in the order they start: each group is a turn and the turns `with_next` joins to it. */
function turnGroups(turns) {
  const groups = [];
  let joining = false;
  for (const [index, turn] of turns.entries()) {
    if (joining) groups.at(-1).push(index);
    else groups.push([index]);
    joining = turn.with_next === true;
  }
  return groups;
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

/** The database a store scenario runs on: the copy's (`<id>@postgres`), else the one `store:` names. */
const databaseOf = (scenario) => scenario.database ?? (scenario.store === 'all' ? 'sqlite' : scenario.store);

async function runTurns(scenario, model, service, config) {
  // `store:`: a real store of the config's, fresh for this run and removed after it.
  const session = scenario.store
    ? await extensionFor(config, 'store', scenario).open(databaseOf(scenario))
    : undefined;
  try {
    return await runTurnsOn(scenario, model, service, config, session?.store, session?.setProposal);
  } finally {
    await session?.close();
  }
}

async function runTurnsOn(scenario, model, service, config, store, setProposal) {
  // Every secret value this run hands out: the checks look for these very values.
  const secrets = new Set();
  const credentials = credentialIssuer(config.credentials ?? evalCredentials, secrets);
  // Which turn a tool run belongs to: turns that run at the same time (`with_next`) each keep their own.
  const turnOfCall = new AsyncLocalStorage();
  // Runs of a proposal a person approved (`run_approved`): marked, so the destructive-call check
  // counts only what ran without an approval.
  const approvedRuns = new AsyncLocalStorage();
  const effectsByTurn = scenario.turns.map(() => []);
  let currentTurn = 0;
  // Per turn: its cancel, the tool whose run fires it (`cancel_after`), and whether the service's
  // next request fires it (`cancel_at_service`).
  const cancels = [];
  const cancelAfter = [];
  const cancelAtService = [];
  const sideEffects = {
    push(...runs) {
      for (const run of runs) {
        const index = turnOfCall.getStore() ?? currentTurn;
        effectsByTurn[index].push(approvedRuns.getStore() ? { ...run, approved: true } : run);
        if (run.tool === cancelAfter[index]) cancels[index]?.abort();
      }
      return runs.length;
    },
  };
  const connectors = logged(connectorsOf(scenario, config), sideEffects);
  let scenarioTime = new Date(scenario.turns[0].at);
  const now = () => new Date(scenarioTime);
  const statusSource = store ?? createInMemoryStatusSource();
  const control = statusControl(statusSource, store, now);
  const subjects = subjectsOf(scenario);
  await applyStatus(control, subjects, connectors, scenario.connectors, scenario.turns[0].at, credentials);
  // One scenario clock for the turn runner and the orchestrator's gate: with the wall clock, the gate
  // would judge a scenario's rate limit by the day the suite runs rather than by the scenario's time.
  // On a store, its proposals too: approvals then live in the same database as the status.
  const orchestrator = createOrchestrator({
    statusSource,
    connectors,
    now,
    ...(store ? { proposals: store.proposals } : {}),
  });
  // The calls each MCP server received, when the config's `mcp.register` counts them (`serverCalls`).
  let mcpServers;
  if (scenario.mcp) {
    // The MCP extension may hand its servers credentials too (`secret_env`): it says which.
    const registered = extensionFor(config, 'mcp', scenario).register(orchestrator, scenario.mcp);
    mcpServers = registered;
    for (const secret of registered?.secrets ?? []) {
      if (typeof secret !== 'string' || secret.length < minSecretLength)
        throw new Error(
          `the config's mcp.register returned a secret shorter than ${minSecretLength} characters: the leak checks could not tell it from ordinary text`,
        );
      secrets.add(secret);
    }
  }
  // The gate callers call the gate itself (agents/gate-caller.mjs), with the config's agents for them;
  // `functions: true` registers the same agents for a turn runner's scenario.
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
  if (directCaller || scenario.functions)
    for (const agent of extensionFor(config, 'callers', scenario).agents?.({ log: sideEffects }) ?? [])
      orchestrator.register(agent);
  const hostOptions = { orchestrator, connectors, statusSource, subject: evalSubject, now };
  const host =
    scenario.adversary === 'mcp-host'
      ? mcpHostFor(extensionFor(config, 'callers', scenario).gateway, hostOptions)
      : scenario.adversary === 'mcp-http-host'
        ? mcpHttpHostFor(extensionFor(config, 'callers', scenario).serveGateway, hostOptions)
        : undefined;
  // The proposals the scenario's approvers ran (`run_approved`), for `replay_approved` in a later step.
  const ranProposals = new Map();
  const evalMemory = scenario.memory
    ? await extensionFor(config, 'memory', scenario).create(orchestrator, evalSubject, scenario.memory)
    : undefined;
  await orchestrator.start();
  const threadStore = store?.threads ?? createInMemoryThreadStore();
  // The service's requests fire a turn's `cancel_at_service` once they arrived (the user cancels
  // while the request is in flight).
  service?.onRequest?.(() => {
    for (const [index, armed] of cancelAtService.entries())
      if (armed) {
        cancelAtService[index] = false;
        cancels[index]?.abort();
      }
  });
  // A scenario that names an adversary tests the product: the adversary plays the model whatever
  // model is under test (one per turn, so turns run together each play their own script). Its
  // mid-turn status changes land between two model steps; its `cancel` fires the turn's signal (the
  // user cancelled) while it answers, `cancel_after` while the step's calls run, as soon as the named
  // tool's code runs, `cancel_at_service` as soon as a request reached the service.
  const onSet = (spec) =>
    applyStatus(control, subjects, connectors, spec, scenarioTime.toISOString(), credentials);
  // One adversary per lane: the turns one after the other share the first (its call ids go on across
  // turns, as a model's would), and a turn started together with others (`with_next`) gets its own.
  const lanes = [];
  const laneTurn = [];
  const playingFor = (index, lane) => {
    laneTurn[lane] = index;
    if (!scenario.adversary) return model;
    lanes[lane] ??= createAdversary(scenario, {
      onSet,
      onCancel: () => cancels[laneTurn[lane]]?.abort(),
      onCancelAfter: (tool) => {
        cancelAfter[laneTurn[lane]] = tool;
      },
      onCancelAtService: () => {
        cancelAtService[laneTurn[lane]] = true;
      },
    });
    return lanes[lane];
  };
  // `runners:` copies run the same turn through another loop (streamTurn, a framework's own).
  const runTurnOf = scenario.runner ? config.runners[scenario.runner] : runTurn;
  const turns = [];
  let thread;
  let memory;
  try {
    memory = await evalMemory?.open();
    for (const group of turnGroups(scenario.turns)) {
      const prepared = [];
      for (const index of group) {
        const turn = scenario.turns[index];
        currentTurn = index;
        scenarioTime = new Date(turn.at);
        // A new thread is a new session: the previous one ends first (memory's final flush). Only the
        // memory's own subject has sessions in it: another subject's turns record nothing there.
        const threadOfTurn = turn.thread ?? scenario.id;
        if ((turn.subject ?? evalSubject) === evalSubject) {
          if (evalMemory && thread !== undefined && threadOfTurn !== thread)
            await evalMemory.endSession(thread);
          thread = threadOfTurn;
        }
        if (turn.memory) await evalMemory.state(turn.memory);
        if (turn.set) await applyStatus(control, subjects, connectors, turn.set, turn.at, credentials);
        if (turn.http) service?.use(turn.http);
        prepared.push(await prepareTurn(index, threadOfTurn, prepared.length));
      }
      // Turns that run together share the first one's clock.
      scenarioTime = new Date(scenario.turns[group[0]].at);
      const results = await Promise.all(
        prepared.map((turn) => turnOfCall.run(turn.index, () => turn.play())),
      );
      // The service cannot tell which of the turns run together sent a request: the group's first
      // turn carries them all.
      const taken = service ? service.take() : undefined;
      const serverCalls = mcpServers?.takeCalls?.();
      for (const [position, turn] of prepared.entries()) {
        const result = results[position];
        const statusAfter = await statusSource.load(turn.subject);
        turns.push({
          user: turn.user,
          reply: result.reply,
          trace: result.trace,
          sideEffects: effectsByTurn[turn.index].splice(0),
          statusChanged: JSON.stringify(turn.statusBefore) !== JSON.stringify(statusAfter),
          temperatures: turn.temperatures,
          toolChoices: turn.toolChoices,
          // What the product keeps of the turn: the stored thread (the transcript).
          transcript: JSON.stringify(result.thread?.messages ?? []),
          ...(taken ? (position === 0 ? taken : { requests: [], unhandled: [] }) : {}),
          // Likewise the calls the MCP servers received, and the tool names each model call was offered.
          ...(serverCalls ? { serverCalls: position === 0 ? serverCalls : {} } : {}),
          modelToolNames: turn.modelToolNames,
        });
      }
    }
  } finally {
    await host?.close();
    await orchestrator.stop();
    await evalMemory?.close();
    await mcpServers?.close?.();
  }

  /** Everything one turn needs before it starts; `play()` runs it. */
  async function prepareTurn(index, threadOfTurn, lane) {
    const turn = scenario.turns[index];
    const subject = turn.subject ?? evalSubject;
    const playing = playingFor(index, lane);
    playing.startTurn?.(index);
    // What each model call was asked for beside the prompt: the temperature (a retry raises it) and
    // the tool choice.
    const temperatures = [];
    const toolChoices = [];
    // The tool names exactly as the model API would receive them (a turn may map real names).
    const modelToolNames = [];
    const record = (options) => {
      temperatures.push(options.temperature ?? null);
      toolChoices.push(options.toolChoice ?? null);
      modelToolNames.push((options.tools ?? []).map((tool) => tool.name));
    };
    const agent = Object.create(playing);
    agent.doGenerate = (options) => {
      record(options);
      return playing.doGenerate(options);
    };
    agent.doStream = (options) => {
      record(options);
      return playing.doStream(options);
    };
    const statusBefore = await statusSource.load(subject);
    // The catalog lists what this deployment offers the user: a connector an admin disabled is
    // left out, as the status block leaves it out (naming it would invite the model to offer it).
    const disabled = new Set(statusBefore.disabledConnectorIds ?? []);
    const systemPrompt = systemPromptOf(
      config,
      connectors.filter((connector) => !disabled.has(connector.id)),
    );
    const cancel = new AbortController();
    cancels[index] = cancel;
    cancelAfter[index] = undefined;
    cancelAtService[index] = false;
    // A gate caller plays its script instead of a turn (no model, no runTurn).
    const play = directCaller
      ? async () => ({
          reply: '',
          trace: await callGate(turn.script, {
            orchestrator,
            statusSource,
            control,
            subject,
            onSet,
            onStatusRead: (hook) => {
              afterStatusRead = hook;
            },
            turnId: `${scenario.id}:${index}`,
            host,
            asApproved: (run) => approvedRuns.run(true, run),
            ranProposals,
            resetProposal: setProposal,
          }),
        })
      : runTurnOf;
    return {
      index,
      subject,
      user: turn.user,
      statusBefore,
      temperatures,
      toolChoices,
      modelToolNames,
      play: () =>
        play({
          model: agent,
          thread: threadOfTurn,
          message: turn.user,
          subject,
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
        }),
    };
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
