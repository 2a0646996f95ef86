// One scenario run: the status source set up as the scenario says, the orchestrator gate with the
// config's extensions, and one turn runner call per user turn (turns marked `with_next` at once),
// each recorded as the checks read it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Connector } from '@patchbay/connector';
import type { Proposal } from '@patchbay/connector/ports';
import { createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource, type InMemoryStatusSource } from '@patchbay/protocol';
import {
  type ConversationMemory,
  createInMemoryThreadStore,
  type RunTurnOptions,
  runTurn,
} from '@patchbay/turn';
import { type Adversary, createAdversary } from './agents/adversaries.js';
import { callGate, type GateHost, gateCallers, mcpHostFor, mcpHttpHostFor } from './agents/gate-caller.js';
import { type ProbeRedefinition, registerProbes } from './agents/probe-agents.js';
import type {
  EvalMemorySession,
  EvalServiceSession,
  EvalStoreHandle,
  ResolvedEvalConfig,
  ToolRun,
  ToolRunLog,
} from './config.js';
import { runnerFunction } from './config-types.js';
import { evalCredentials, minSecretLength } from './credentials.js';
import {
  countStates,
  type GateProposals,
  gateProposals,
  type LogLine,
  type PolicyRefusal,
  recordingLogger,
  withApprovals,
} from './gate-setup.js';
import {
  connectorsOf,
  evalSubject,
  extensionFor,
  hookStatusReads,
  logged,
  type ModelCallRecords,
  recordingModel,
  runOf,
  subjectsOf,
  systemPromptOf,
  turnGroups,
} from './run-setup.js';
import {
  applyStatus,
  type CredentialIssuer,
  credentialIssuer,
  type StatusControl,
  statusControl,
} from './run-status.js';
import type { RunTrace, Scenario, ScenarioConnectorState, ScenarioRun, TurnRun } from './run-types.js';

// A turn that outlives this is cut off (its calls end `cancelled`), so a missing deadline (an MCP
// call that hangs with no timeout) fails its scenario instead of hanging the suite.
const turnGuardMs = 120_000;

/** What a turn's play resolves to: runTurn's result, or a gate caller's trace with no reply. */
interface PlayedTurn {
  reply: string;
  trace: RunTrace;
  thread?: { messages: readonly unknown[] };
}

/** One turn, ready to start. */
interface PreparedTurn extends ModelCallRecords {
  index: number;
  subject: string;
  user: string;
  statusBefore: unknown;
  play(): Promise<PlayedTurn>;
}

/** The MCP servers the config's `mcp.register` registered, as far as it says. */
type McpServers = Exclude<ReturnType<NonNullable<ResolvedEvalConfig['mcp']>['register']>, void>;

/** A scenario run: its connectors, status, gate and extensions, and the turns it played. */
export class RunSession {
  /** Every secret value this run hands out: the checks look for these very values. */
  private readonly secrets = new Set<string>();
  private readonly credentials: CredentialIssuer;
  /** Which turn a tool run belongs to: turns that run at the same time (`with_next`) each keep their own. */
  private readonly turnOfCall = new AsyncLocalStorage<number>();
  /** Runs of a proposal a person approved (`run_approved`): the destructive-call check counts only the others. */
  private readonly approvedRuns = new AsyncLocalStorage<boolean>();
  private readonly effectsByTurn: ToolRun[][];
  private currentTurn = 0;
  /** Per turn: its cancel, the tool whose run fires it (`cancel_after`), and whether the service's next request fires it. */
  private readonly cancels: Array<AbortController | undefined> = [];
  private readonly cancelAfter: Array<string | undefined> = [];
  private readonly cancelAtService: boolean[] = [];
  private readonly sideEffects: ToolRunLog;
  private readonly connectors: Connector[];
  private scenarioTime: Date;
  readonly now = () => new Date(this.scenarioTime);
  private readonly statusSource: InMemoryStatusSource | EvalStoreHandle;
  private readonly control: StatusControl;
  private readonly subjects: string[];
  /** The gate: created in {@link setUp}, once the scenario's initial status is set. */
  private orchestrator!: Orchestrator;
  private readonly directCaller: boolean;
  private mcpServers: McpServers | undefined;
  /** `cancel_while_reading`: a one-shot hook that runs once the gate's next status read returned. */
  private afterStatusRead: (() => void) | undefined;
  private host: GateHost | undefined;
  /** The proposals the scenario's approvers ran (`run_approved`), for `replay_approved` in a later step. */
  private readonly ranProposals = new Map<string, Proposal>();
  private evalMemory: EvalMemorySession | undefined;
  private memory: ConversationMemory | undefined;
  /** One adversary per lane (see {@link playingFor}), and the turn each lane plays now. */
  private readonly lanes: Adversary[] = [];
  private readonly laneTurn: number[] = [];
  private thread: string | undefined;
  private readonly turns: TurnRun[] = [];
  /** `gate:`: what the orchestrator logged, not yet given to a turn; its proposals; its refusal; `redefine`. */
  private readonly logLines: LogLine[] = [];
  private gateStore: GateProposals | undefined;
  private gateRefusal: PolicyRefusal | null | undefined;
  private redefine: ((agent: string, change: ProbeRedefinition) => Promise<void>) | undefined;

  constructor(
    private readonly scenario: Scenario,
    private readonly model: LanguageModelV4,
    private readonly service: EvalServiceSession | undefined,
    private readonly config: ResolvedEvalConfig,
    private readonly store: EvalStoreHandle | undefined,
    private readonly setProposal:
      | ((id: string, columns: Record<string, string | null>) => Promise<void>)
      | undefined,
  ) {
    this.credentials = credentialIssuer(config.credentials ?? evalCredentials, this.secrets);
    this.effectsByTurn = scenario.turns.map(() => []);
    this.sideEffects = { push: (...runs) => this.recordRuns(runs) };
    this.connectors = logged(connectorsOf(scenario, config), this.sideEffects);
    this.scenarioTime = new Date(scenario.turns[0]!.at);
    this.statusSource = store ?? createInMemoryStatusSource();
    this.control = statusControl(this.statusSource, store, this.now);
    this.subjects = subjectsOf(scenario);
    // The gate callers call the gate itself (agents/gate-caller.ts), with the config's agents for them.
    this.directCaller = gateCallers.has(scenario.adversary);
  }

  /** Records tool runs on the turn they belong to; a `cancel_after` tool's run fires its turn's cancel. */
  private recordRuns(runs: ToolRun[]): number {
    for (const run of runs) {
      const index = this.turnOfCall.getStore() ?? this.currentTurn;
      this.effectsByTurn[index]!.push(this.approvedRuns.getStore() ? { ...run, approved: true } : run);
      if (run.tool === this.cancelAfter[index]) this.cancels[index]?.abort();
    }
    return runs.length;
  }

  /** Sets a status spec for every subject of the scenario. */
  private setStatus(spec: Record<string, ScenarioConnectorState> | undefined, at: string) {
    return applyStatus(this.control, this.subjects, this.connectors, spec, at, this.credentials);
  }

  /** A mid-turn status change (an adversary's or a gate caller's `set`), on the scenario's clock. */
  private readonly onSet = (spec: Record<string, ScenarioConnectorState>) =>
    this.setStatus(spec, this.scenarioTime.toISOString());

  /** Registers the MCP servers of `mcp:`; the secrets it handed them become secrets of the run. */
  private registerMcp() {
    const { scenario, config } = this;
    if (!scenario.mcp) return;
    const registered = extensionFor(config, 'mcp', scenario).register(this.orchestrator, scenario.mcp);
    this.mcpServers = registered ?? undefined;
    for (const secret of registered?.secrets ?? []) {
      if (typeof secret !== 'string' || secret.length < minSecretLength)
        throw new Error(
          `the config's mcp.register returned a secret shorter than ${minSecretLength} characters: the leak checks could not tell it from ordinary text`,
        );
      this.secrets.add(secret);
    }
  }

  /** The gate callers' agents (also for `functions: true`) and MCP host. */
  private registerCallers() {
    const { scenario, config, orchestrator } = this;
    if (this.directCaller)
      hookStatusReads(this.statusSource, () => {
        const hook = this.afterStatusRead;
        this.afterStatusRead = undefined;
        hook?.();
      });
    if (this.directCaller || scenario.functions)
      for (const agent of extensionFor(config, 'callers', scenario).agents?.({ log: this.sideEffects }) ?? [])
        orchestrator.register(agent);
    const hostOptions = {
      orchestrator,
      connectors: this.connectors,
      statusSource: this.statusSource,
      subject: evalSubject,
      now: this.now,
    };
    if (scenario.adversary === 'mcp-host')
      this.host = mcpHostFor(extensionFor(config, 'callers', scenario).gateway!, hostOptions);
    else if (scenario.adversary === 'mcp-http-host')
      this.host = mcpHttpHostFor(extensionFor(config, 'callers', scenario).serveGateway!, hostOptions);
  }

  /** Sets the status up, registers the extensions, and starts the gate. */
  async setUp(): Promise<void> {
    const { scenario, config, store } = this;
    await this.setStatus(scenario.connectors, scenario.turns[0]!.at);
    // One scenario clock for the turn runner and the orchestrator's gate: with the wall clock, the gate
    // would judge a scenario's rate limit by the day the suite runs rather than by the scenario's time.
    // On a store, its proposals too: approvals then live in the same database as the status.
    const { gate } = scenario;
    this.gateStore = gate && !store ? gateProposals(gate.proposals) : undefined;
    const proposals = store?.proposals ?? this.gateStore?.store;
    const { made, refusal } = withApprovals(
      createOrchestrator,
      {
        statusSource: this.statusSource,
        connectors: this.connectors,
        now: this.now,
        ...(proposals ? { proposals } : {}),
        ...(gate ? { logger: recordingLogger(this.logLines) as never } : {}),
      },
      gate,
    );
    this.orchestrator = made;
    this.gateRefusal = refusal;
    this.redefine = registerProbes(this.orchestrator, gate?.agents, this.sideEffects);
    this.registerMcp();
    this.registerCallers();
    this.evalMemory = scenario.memory
      ? await extensionFor(config, 'memory', scenario).create(this.orchestrator, evalSubject, scenario.memory)
      : undefined;
    await this.orchestrator.start();
    // The service's requests fire a turn's `cancel_at_service` once they arrived (the user cancels
    // while the request is in flight).
    this.service?.onRequest?.(() => {
      for (const [index, armed] of this.cancelAtService.entries())
        if (armed) {
          this.cancelAtService[index] = false;
          this.cancels[index]?.abort();
        }
    });
  }

  /**
   * The model of a turn. A scenario that names an adversary tests the product: the adversary plays the
   * model whatever model is under test. Its mid-turn status changes land between two model steps; its
   * `cancel` fires the turn's signal (the user cancelled) while it answers, `cancel_after` while the
   * step's calls run, as soon as the named tool's code runs, `cancel_at_service` as soon as a request
   * reached the service. One adversary per lane: the turns one after the other share the first (its
   * call ids go on across turns, as a model's would), and a turn started together with others
   * (`with_next`) gets its own.
   */
  private playingFor(index: number, lane: number): LanguageModelV4 & { startTurn?: (index: number) => void } {
    this.laneTurn[lane] = index;
    if (!this.scenario.adversary) return this.model;
    this.lanes[lane] ??= createAdversary(this.scenario, {
      onSet: this.onSet,
      onCancel: () => this.cancels[this.laneTurn[lane]!]?.abort(),
      onCancelAfter: (tool) => {
        this.cancelAfter[this.laneTurn[lane]!] = tool;
      },
      onCancelAtService: () => {
        this.cancelAtService[this.laneTurn[lane]!] = true;
      },
    });
    return this.lanes[lane];
  }

  /** Plays every turn, group by group, and stops the gate and the extensions, whatever happens. */
  async playAll(): Promise<void> {
    try {
      this.memory = await this.evalMemory?.open();
      for (const group of turnGroups(this.scenario.turns)) await this.playGroup(group);
    } finally {
      await this.host?.close();
      await this.orchestrator.stop();
      await this.evalMemory?.close();
      await this.mcpServers?.close?.();
    }
  }

  /** Prepares each turn of a group in order, then plays them at once on the first one's clock. */
  private async playGroup(group: readonly number[]) {
    const { scenario } = this;
    const prepared: PreparedTurn[] = [];
    for (const index of group) {
      const turn = scenario.turns[index]!;
      this.currentTurn = index;
      this.scenarioTime = new Date(turn.at);
      // A new thread is a new session: the previous one ends first (memory's final flush). Only the
      // memory's own subject has sessions in it: another subject's turns record nothing there.
      const threadOfTurn = turn.thread ?? scenario.id;
      if ((turn.subject ?? evalSubject) === evalSubject) {
        if (this.evalMemory && this.thread !== undefined && threadOfTurn !== this.thread)
          await this.evalMemory.endSession(this.thread);
        this.thread = threadOfTurn;
      }
      if (turn.memory) await this.evalMemory!.state(turn.memory);
      if (turn.set) await this.setStatus(turn.set, turn.at);
      if (turn.http) this.service?.use(turn.http);
      prepared.push(await this.prepareTurn(index, threadOfTurn, prepared.length));
    }
    // Turns that run together share the first one's clock.
    this.scenarioTime = new Date(scenario.turns[group[0]!]!.at);
    const results = await Promise.all(
      prepared.map((turn) => this.turnOfCall.run(turn.index, () => turn.play())),
    );
    await this.recordGroup(prepared, results);
  }

  /**
   * Records each turn of a group as the checks read it. The service cannot tell which of the turns
   * run together sent a request: the group's first turn carries them all (likewise the calls the MCP
   * servers received).
   */
  private async recordGroup(prepared: readonly PreparedTurn[], results: readonly PlayedTurn[]) {
    const taken = this.service ? this.service.take() : undefined;
    const serverCalls = this.mcpServers?.takeCalls?.();
    for (const [position, turn] of prepared.entries()) {
      const result = results[position]!;
      const statusAfter = await this.statusSource.load(turn.subject);
      this.turns.push({
        user: turn.user,
        reply: result.reply,
        trace: result.trace,
        sideEffects: this.effectsByTurn[turn.index]!.splice(0),
        statusChanged: JSON.stringify(turn.statusBefore) !== JSON.stringify(statusAfter),
        temperatures: turn.temperatures,
        toolChoices: turn.toolChoices,
        // What the product keeps of the turn: the stored thread (the transcript).
        transcript: JSON.stringify(result.thread?.messages ?? []),
        ...(taken ? (position === 0 ? taken : { requests: [], unhandled: [] }) : {}),
        ...(serverCalls ? { serverCalls: position === 0 ? serverCalls : {} } : {}),
        modelToolNames: turn.modelToolNames,
        ...(await this.gateRecord(turn.index, turn.subject, position)),
      });
    }
  }

  /** With `gate:`: the turn's log lines (all on a group's first turn), proposals and the policy's refusal. */
  private async gateRecord(index: number, subject: string, position: number) {
    if (!this.scenario.gate) return {};
    return {
      logs: position === 0 ? this.logLines.splice(0) : [],
      proposals: countStates(await this.orchestrator.listProposals({ subject })),
      ...(index === 0 && this.gateRefusal !== undefined ? { gateRefusal: this.gateRefusal } : {}),
    };
  }

  /** A gate caller's turn: it plays its script against the gate instead (no model, no runTurn). */
  private gateCallerPlay(index: number, subject: string): (options: RunTurnOptions) => Promise<PlayedTurn> {
    const { scenario } = this;
    return async () => ({
      reply: '',
      trace: await callGate(scenario.turns[index]!.script, {
        orchestrator: this.orchestrator,
        control: this.control,
        subject,
        onSet: this.onSet,
        onStatusRead: (hook) => {
          this.afterStatusRead = hook;
        },
        turnId: `${scenario.id}:${index}`,
        host: this.host,
        asApproved: (run) => this.approvedRuns.run(true, run),
        ranProposals: this.ranProposals,
        resetProposal: this.setProposal ?? this.gateStore?.setProposal,
        redefine: this.redefine,
        onProposalList: this.gateStore?.onList,
        gateEdit: this.gateStore?.setProposal,
      }),
    });
  }

  /** Everything one turn needs before it starts; `play()` runs it. */
  private async prepareTurn(index: number, threadOfTurn: string, lane: number): Promise<PreparedTurn> {
    const { scenario, config } = this;
    const turn = scenario.turns[index]!;
    const subject = turn.subject ?? evalSubject;
    const playing = this.playingFor(index, lane);
    playing.startTurn?.(index);
    const records: ModelCallRecords = { temperatures: [], toolChoices: [], modelToolNames: [] };
    const agent = recordingModel(playing, records);
    const statusBefore = await this.statusSource.load(subject);
    // The catalog lists what this deployment offers the user: a connector an admin disabled is
    // left out, as the status block leaves it out (naming it would invite the model to offer it).
    const disabled = new Set(statusBefore.disabledConnectorIds ?? []);
    const systemPrompt = systemPromptOf(
      config,
      this.connectors.filter((connector) => !disabled.has(connector.id)),
    );
    const cancel = new AbortController();
    this.cancels[index] = cancel;
    this.cancelAfter[index] = undefined;
    this.cancelAtService[index] = false;
    // `runners:` copies run the same turn through another loop (streamTurn, a framework's own).
    const play: (options: RunTurnOptions) => Promise<PlayedTurn> = this.directCaller
      ? this.gateCallerPlay(index, subject)
      : scenario.runner
        ? runnerFunction(config.runners![scenario.runner]!)
        : runTurn;
    const options = (): RunTurnOptions => ({
      model: agent,
      thread: threadOfTurn,
      message: turn.user,
      subject,
      orchestrator: this.orchestrator,
      connectors: this.connectors,
      statusSource: this.statusSource,
      systemPrompt,
      threadStore: this.store?.threads ?? this.threadStore,
      now: this.now,
      signal: AbortSignal.any([AbortSignal.timeout(turnGuardMs), cancel.signal]),
      ...(scenario.turn_options?.needs_input
        ? { retry: { needsInput: scenario.turn_options.needs_input } }
        : {}),
      ...(scenario.turn_options?.max_result_chars
        ? { maxResultChars: scenario.turn_options.max_result_chars }
        : {}),
      ...(this.memory ? { memory: this.memory } : {}),
    });
    return { index, subject, user: turn.user, statusBefore, ...records, play: () => play(options()) };
  }

  /** The stored threads when the run has no store. */
  private readonly threadStore = createInMemoryThreadStore();

  /** The run as the checks read it. */
  result(): ScenarioRun {
    return runOf(this.connectors, this.turns, this.secrets);
  }
}
