// Loads the scenario files (<directory>/*.yaml), validates every one against the scenario format
// (scenario-format/) and the config's connectors before anything runs, and expands the ones built
// from external data (BFCL slices, AgentDojo payloads: the config's `data`) into plain scenarios.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Connector } from '@patchbay/connector';
import { adversaries } from './agents/adversaries.js';
import { baselines } from './agents/baselines.js';
import type { EvalData, EvalStore, ResolvedEvalConfig } from './config.js';
import { runsInAll } from './config-types.js';
import { ScenarioFileError } from './eval-errors.js';
import type { Scenario } from './run-types.js';
import {
  type AgentDojoAttacks,
  type BfclIrrelevanceDocument,
  type BfclItem,
  type BfclMissParamDocument,
  type ScenarioCatalog,
  ScenarioProblem,
  validateScenarioFile,
} from './scenario-format/index.js';

/** The stand-in a factory config's connectors are listed from for validation: no fixtures. */
function defaultConnectors(config: ResolvedEvalConfig): readonly Connector[] {
  return typeof config.connectors === 'function'
    ? config.connectors({ fixtures: {}, scenarioId: '' })
    : config.connectors;
}

/**
 * What a config's scenarios may name: its connectors and packages, the fake service's response names,
 * the baselines and adversaries, the MCP and memory tools, external data. An extension the config
 * lacks is undefined, and a scenario that needs it is a problem.
 */
export function catalogOf(config: ResolvedEvalConfig): ScenarioCatalog {
  const bfcl = config.data?.bfcl;
  const functions = config.callers?.agents?.({ log: [] });
  return {
    connectors: defaultConnectors(config),
    packages: config.packages ?? {},
    responses: config.service?.responses,
    baselines: Object.keys(baselines),
    adversaries: Object.keys(adversaries),
    mcpTools: config.mcp?.tools,
    memoryTools: config.memory?.tools,
    databases: config.store ? databasesOf(config.store) : undefined,
    functionTools: functions?.flatMap((agent) => agent.manifest().tools.map((tool) => tool.name)),
    bfcl: bfcl
      ? (file: string) => {
          const items = bfcl(file);
          return items ? new Map(items.map((item): [string, BfclItem] => [item.id, item])) : undefined;
        }
      : undefined,
    agentdojo: config.data?.agentdojo,
  };
}

const bfclCases = (data: EvalData, file: string) =>
  new Map((data?.bfcl?.(file) ?? []).map((item): [string, BfclItem] => [item.id, item]));

function agentdojoPayload(
  { attack, suite, task }: { attack: string; suite: string; task: string },
  attacks: AgentDojoAttacks,
): string {
  // Validation made sure the attack, suite and task exist.
  const goal = attacks.injection_goals[suite]!.find((item) => item.task === task)!.goal;
  return attacks.attack_templates[attack]!.replaceAll('{user}', attacks.default_user)
    .replaceAll('{model}', 'the assistant')
    .replaceAll('{goal}', goal);
}

function fillInjection(value: unknown, payload: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{injection}', payload);
  if (Array.isArray(value)) return value.map((item) => fillInjection(item, payload));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, fillInjection(inner, payload)]),
    );
  }
  return value;
}

function expandIrrelevance(spec: BfclIrrelevanceDocument, data: EvalData): Scenario[] {
  const cases = bfclCases(data, spec.file);
  return spec.ids.map((id) => ({
    id: `bfcl-${id.replaceAll('_', '-')}`,
    title: `BFCL ${id}: no tool fits`,
    source: `BFCL v4 ${id}`,
    targets: spec.targets ?? [],
    connectors: spec.connectors,
    turns: [
      { at: '2026-11-21T15:00:00Z', user: cases.get(id)!.question[0]![0]!.content, expect: spec.expect },
    ],
  }));
}

function expandMissParam(spec: BfclMissParamDocument, data: EvalData): Scenario[] {
  const cases = bfclCases(data, spec.file);
  return spec.cases.map((item) => {
    const question = cases.get(item.id)!.question;
    return {
      id: `bfcl-${item.id.replaceAll('_', '-')}`,
      title: `BFCL ${item.id}: ask for the missing parameter, then use it`,
      source: `BFCL v4 ${item.id}, turns ${item.ask_turn} and ${item.answer_turn}`,
      targets: spec.targets ?? [],
      connectors: spec.connectors,
      turns: [
        {
          at: '2026-11-21T15:00:00Z',
          user: question[item.ask_turn]![0]!.content,
          expect: { asks_user: true, no_side_effects: true, no_duplicate_calls: true },
        },
        {
          at: '2026-11-21T15:03:00Z',
          user: question[item.answer_turn]![0]!.content,
          expect: {
            called_ok: [item.tool],
            args: Object.entries(item.args).map(([field, equals]) => ({ tool: item.tool, field, equals })),
          },
        },
      ],
    };
  });
}

/** A validated file's document: one of the file forms. */
interface FileDocument {
  bfcl_irrelevance?: BfclIrrelevanceDocument;
  bfcl_miss_param?: BfclMissParamDocument;
  scenarios?: Scenario[];
}

function expand(document: FileDocument, data: EvalData): Scenario[] {
  if (document.bfcl_irrelevance) return expandIrrelevance(document.bfcl_irrelevance, data);
  if (document.bfcl_miss_param) return expandMissParam(document.bfcl_miss_param, data);
  const list = document.scenarios ?? [document as Scenario];
  return list.map((scenario) => {
    if (!scenario.agentdojo) return scenario;
    const { agentdojo, ...rest } = scenario;
    const attack = agentdojo as { attack: string; suite: string; task: string };
    // Validation made sure the config has AgentDojo data for a scenario that names it.
    return fillInjection(rest, agentdojoPayload(attack, data.agentdojo!)) as Scenario;
  });
}

/** One valid scenario file: where it is, its text, and its document. */
export interface ScenarioFile {
  file: string;
  text: string;
  document: unknown;
}

/**
 * Reads and validates every `.yaml` file of `directory` against `catalog` (see {@link catalogOf}):
 * returns each file's document, or throws a {@link ScenarioFileError} listing every problem of every
 * file (file, line, suggestion).
 */
export function readScenarioFiles(directory: string, catalog: ScenarioCatalog): ScenarioFile[] {
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
    .sort()
    .map((name) => join(directory, name));
  const problems: ScenarioProblem[] = [];
  const documents: ScenarioFile[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const result = validateScenarioFile(text, file, catalog);
    problems.push(...result.problems);
    if (result.problems.length === 0) documents.push({ file, text, document: result.document });
  }
  if (problems.length > 0) throw new ScenarioFileError(problems, process.cwd());
  return documents;
}

/**
 * The copies of a scenario for each runner its `runners:` names (`all`: every runner of the config
 * not marked `inAll: false`):
 * `<id>@<runner>`, with `runner` set. A name the config has no runner for is a problem.
 */
function throughRunners(
  scenario: Scenario,
  config: ResolvedEvalConfig,
  problems: ScenarioProblem[],
  file: string,
): Scenario[] {
  if (!scenario.runners) return [];
  const available = Object.keys(config.runners ?? {});
  const names =
    scenario.runners === 'all'
      ? Object.entries(config.runners ?? {})
          .filter(([, entry]) => runsInAll(entry))
          .map(([name]) => name)
      : scenario.runners;
  const unknown = names.filter((name) => !available.includes(name));
  if (unknown.length > 0) {
    problems.push(
      new ScenarioProblem({
        file,
        line: 1,
        column: 1,
        message: `scenario ${scenario.id}: no runner ${unknown.join(', ')} in the config (it has: ${available.join(', ') || 'none'})`,
      }),
    );
    return [];
  }
  // A copy tests the runner, not the model: the naive baselines' targets stay with the original (a
  // framework that asks the person itself, say, makes a baseline's silent reply harmless there).
  return names.map((runner) => ({ ...scenario, id: `${scenario.id}@${runner}`, runner, targets: [] }));
}

/** The databases the config's store offers now (`sqlite` first when it offers it). */
function databasesOf(store: EvalStore): string[] {
  const { databases } = store;
  return [...(typeof databases === 'function' ? databases() : databases)];
}

/**
 * The copies of a `store: all` scenario for each database the config's store offers now beyond
 * SQLite (`<id>@postgres`, with `database` set); the original runs on SQLite. A runner's copy is
 * not copied again: the loops are tested on one database, the databases with one loop.
 */
function throughStores(scenario: Scenario, config: ResolvedEvalConfig): Scenario[] {
  if (scenario.store !== 'all' || !config.store) return [];
  return databasesOf(config.store)
    .filter((database) => database !== 'sqlite')
    .map((database) => ({ ...scenario, id: `${scenario.id}@${database}`, database, targets: [] }));
}

/**
 * Every scenario of a config (its `scenarios` directory, or `directory`), in file order; `filter`
 * keeps the ids it matches. Throws a {@link ScenarioFileError} on an invalid file.
 */
export function loadScenarios(
  config: ResolvedEvalConfig,
  {
    filter,
    directory = config.scenarios,
  }: { filter?: string | undefined; directory?: string | undefined } = {},
): Scenario[] {
  const seen = new Map<string, string>();
  const problems: ScenarioProblem[] = [];
  const scenarios = readScenarioFiles(directory, catalogOf(config)).flatMap(({ file, text, document }) =>
    expand(document as FileDocument, config.data ?? {}).flatMap((scenario) => {
      if (seen.has(scenario.id)) {
        // An expanded BFCL id (bfcl-irrelevance-0) is written irrelevance_0 in its file.
        const written = [scenario.id, scenario.id.replace(/^bfcl-/, '').replaceAll('-', '_')];
        const index = text.split('\n').findIndex((line) => written.some((id) => line.includes(id)));
        problems.push(
          new ScenarioProblem({
            file,
            line: index + 1 || 1,
            column: 1,
            message: `scenario id "${scenario.id}" is used twice (first in ${relative(process.cwd(), seen.get(scenario.id)!)})`,
          }),
        );
      }
      seen.set(scenario.id, file);
      return [
        scenario,
        ...throughRunners(scenario, config, problems, file),
        ...throughStores(scenario, config),
      ];
    }),
  );
  if (problems.length > 0) throw new ScenarioFileError(problems, process.cwd());
  return filter ? scenarios.filter((scenario) => new RegExp(filter).test(scenario.id)) : scenarios;
}
