// What a scenario run is built from: its connectors (each tool logging its runs), its subjects, the
// order its turns start in, the system prompt of a turn, and the config's extensions it needs.
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { Connector } from '@patchbay/connector';
import { buildSystemPrompt } from '@patchbay/protocol';
import { defaultIdentity, type ResolvedEvalConfig, type ToolRunLog } from './config.js';
import type { Scenario, ScenarioRun, ScenarioTurn, TurnRun } from './run-types.js';

/** The subject of a turn that names none. */
export const evalSubject = 'eval-user';

/** Every subject of a scenario: the default one and each a turn names (`turns[].subject`). */
export const subjectsOf = (scenario: Scenario) => [
  ...new Set([evalSubject, ...scenario.turns.map((turn) => turn.subject ?? evalSubject)]),
];

/** The turns in the order they start: each group is a turn and the turns `with_next` joins to it. */
export function turnGroups(turns: readonly ScenarioTurn[]): number[][] {
  const groups: number[][] = [];
  let joining = false;
  for (const [index, turn] of turns.entries()) {
    if (joining) groups.at(-1)!.push(index);
    else groups.push([index]);
    joining = turn.with_next === true;
  }
  return groups;
}

/** The connectors with every tool logging `{ tool, input }` to `log` when its code runs. */
export function logged(connectors: readonly Connector[], log: ToolRunLog): Connector[] {
  return connectors.map((connector) => ({
    ...connector,
    tools: connector.tools.map((tool) => ({
      ...tool,
      execute: (input: unknown, context: Parameters<typeof tool.execute>[1]) => {
        log.push({ tool: tool.name, input });
        return tool.execute(input, context);
      },
    })),
  }));
}

/** The connectors of one scenario: those `packages:` names, else the config's (with its fixtures). */
export function connectorsOf(scenario: Scenario, config: ResolvedEvalConfig): readonly Connector[] {
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
export function systemPromptOf(config: ResolvedEvalConfig, catalog: readonly Connector[]): string {
  const identity = config.identity ?? defaultIdentity;
  if (typeof config.systemPrompt === 'string') return config.systemPrompt;
  if (typeof config.systemPrompt === 'function') return config.systemPrompt({ identity, catalog });
  return buildSystemPrompt({ identity, catalog });
}

/** The extensions of a config a scenario key needs. */
type Extension = 'store' | 'mcp' | 'memory' | 'callers';

/** The config's `key` extension; a scenario that needs one the config lacks cannot run. */
export function extensionFor<Key extends Extension>(
  config: ResolvedEvalConfig,
  key: Key,
  scenario: Scenario,
): NonNullable<ResolvedEvalConfig[Key]> {
  const extension = config[key];
  if (!extension) throw new Error(`scenario ${scenario.id} uses \`${key}:\` but the config has no ${key}`);
  return extension;
}

/** Tool name → effect (`read`, `write`, `destructive`). */
export function effectsOf(connectors: readonly Connector[]): Record<string, string> {
  return Object.fromEntries(
    connectors.flatMap((connector) => connector.tools.map((tool) => [tool.name, tool.effect])),
  );
}

/** What each model call of a turn was asked for beside the prompt. */
export interface ModelCallRecords {
  /** The temperature (a retry raises it); `null`: none given. */
  temperatures: Array<number | null>;
  /** The tool choice; `null`: none given. */
  toolChoices: Array<{ type: string } | null>;
  /** The tool names exactly as the model API would receive them (a turn may map real names). */
  modelToolNames: string[][];
}

/** The model of a turn: `playing`, recording what each call was asked for into `records`. */
export function recordingModel(playing: LanguageModelV4, records: ModelCallRecords): LanguageModelV4 {
  const record = (options: LanguageModelV4CallOptions) => {
    records.temperatures.push(options.temperature ?? null);
    records.toolChoices.push(options.toolChoice ?? null);
    records.modelToolNames.push((options.tools ?? []).map((tool) => tool.name));
  };
  const agent: LanguageModelV4 = Object.create(playing);
  agent.doGenerate = (options) => {
    record(options);
    return playing.doGenerate(options);
  };
  agent.doStream = (options) => {
    record(options);
    return playing.doStream(options);
  };
  return agent;
}

/** Makes `source`'s status reads call `afterRead` once each returned (`cancel_while_reading`). */
export function hookStatusReads(source: object, afterRead: () => void): void {
  const methods = source as Record<string, unknown>;
  for (const method of ['load', 'loadConnectors']) {
    const read = (methods[method] as ((...args: unknown[]) => Promise<unknown>) | undefined)?.bind(source);
    if (read)
      methods[method] = async (...args: unknown[]) => {
        const state = await read(...args);
        afterRead();
        return state;
      };
  }
}

/** A run as the checks read it: its turns, secrets, and what its connectors' tools are. */
export function runOf(
  connectors: readonly Connector[],
  turns: TurnRun[],
  secrets: ReadonlySet<string>,
): ScenarioRun {
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
