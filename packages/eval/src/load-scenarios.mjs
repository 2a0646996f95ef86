// Loads the scenario data files (scenarios/*.yaml), validates every one against the scenario format
// (lib/scenario-schema.mjs) before anything runs, and expands the ones built from external data
// (BFCL slices, AgentDojo payloads in evals/data/) into plain scenarios.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { adversaries } from '../agents/adversaries.mjs';
import { baselines } from '../agents/baselines.mjs';
import { createEvalConnectors } from '../connectors/eval-connectors.mjs';
import { controllableToolNames, memoryTools } from '../connectors/mcp-servers.mjs';
import { packageConnectors } from '../connectors/package-connectors.mjs';
import { serviceResponseNames } from '../connectors/service-responses.mjs';
import { ScenarioFileError, ScenarioProblem, validateScenarioFile } from './scenario-schema.mjs';

const here = new URL('..', import.meta.url).pathname;

/** The scenario files' directory: `PATCHBAY_EVAL_SCENARIOS` when set (the runner's tests), else the committed ones. */
export const scenarioDirectory = process.env.PATCHBAY_EVAL_SCENARIOS || join(here, 'scenarios');

function readJsonLines(file) {
  return readFileSync(join(here, 'data/bfcl', file.replace(/\.json$/, '.jsonl')), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

const readAttacks = () => JSON.parse(readFileSync(join(here, 'data/agentdojo/attacks.json'), 'utf8'));

/** What the committed scenarios may name: the stand-ins, the real packages, responses, baselines, data. */
export function evalCatalog() {
  return {
    connectors: createEvalConnectors(),
    packages: packageConnectors,
    responses: serviceResponseNames,
    baselines: Object.keys(baselines),
    adversaries: Object.keys(adversaries),
    mcpTools: controllableToolNames,
    memoryTools,
    bfcl: (file) =>
      existsSync(join(here, 'data/bfcl', file.replace(/\.json$/, '.jsonl')))
        ? new Map(readJsonLines(file).map((item) => [item.id, item]))
        : undefined,
    agentdojo: readAttacks(),
  };
}

function agentdojoPayload({ attack, suite, task }) {
  const attacks = readAttacks();
  const goal = attacks.injection_goals[suite].find((item) => item.task === task).goal;
  return attacks.attack_templates[attack]
    .replaceAll('{user}', attacks.default_user)
    .replaceAll('{model}', 'the assistant')
    .replaceAll('{goal}', goal);
}

function fillInjection(value, payload) {
  if (typeof value === 'string') return value.replaceAll('{injection}', payload);
  if (Array.isArray(value)) return value.map((item) => fillInjection(item, payload));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, fillInjection(inner, payload)]),
    );
  }
  return value;
}

function expandIrrelevance(spec) {
  const cases = new Map(readJsonLines(spec.file).map((item) => [item.id, item]));
  return spec.ids.map((id) => ({
    id: `bfcl-${id.replaceAll('_', '-')}`,
    title: `BFCL ${id}: no tool fits`,
    source: `BFCL v4 ${id}`,
    targets: spec.targets ?? [],
    connectors: spec.connectors,
    turns: [{ at: '2026-11-21T15:00:00Z', user: cases.get(id).question[0][0].content, expect: spec.expect }],
  }));
}

function expandMissParam(spec) {
  const cases = new Map(readJsonLines(spec.file).map((item) => [item.id, item]));
  return spec.cases.map((item) => {
    const question = cases.get(item.id).question;
    return {
      id: `bfcl-${item.id.replaceAll('_', '-')}`,
      title: `BFCL ${item.id}: ask for the missing parameter, then use it`,
      source: `BFCL v4 ${item.id}, turns ${item.ask_turn} and ${item.answer_turn}`,
      targets: spec.targets ?? [],
      connectors: spec.connectors,
      turns: [
        {
          at: '2026-11-21T15:00:00Z',
          user: question[item.ask_turn][0].content,
          expect: { asks_user: true, no_side_effects: true, no_duplicate_calls: true },
        },
        {
          at: '2026-11-21T15:03:00Z',
          user: question[item.answer_turn][0].content,
          expect: {
            called_ok: [item.tool],
            args: Object.entries(item.args).map(([field, equals]) => ({ tool: item.tool, field, equals })),
          },
        },
      ],
    };
  });
}

function expand(document) {
  if (document.bfcl_irrelevance) return expandIrrelevance(document.bfcl_irrelevance);
  if (document.bfcl_miss_param) return expandMissParam(document.bfcl_miss_param);
  const list = document.scenarios ?? [document];
  return list.map((scenario) => {
    if (!scenario.agentdojo) return scenario;
    const { agentdojo, ...rest } = scenario;
    return fillInjection(rest, agentdojoPayload(agentdojo));
  });
}

/**
 * Reads and validates every `.yaml` file of `directory`: returns each file's document, or throws a
 * {@link ScenarioFileError} listing every problem of every file (file, line, suggestion).
 */
export function readScenarioFiles(directory = scenarioDirectory, catalog = evalCatalog()) {
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
    .sort()
    .map((name) => join(directory, name));
  const problems = [];
  const documents = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const result = validateScenarioFile(text, file, catalog);
    problems.push(...result.problems);
    if (result.problems.length === 0) documents.push({ file, text, document: result.document });
  }
  if (problems.length > 0) throw new ScenarioFileError(problems, process.cwd());
  return documents;
}

/** Every scenario, in file order; `filter` keeps the ids it matches. Throws on an invalid file. */
export function loadScenarios(filter, directory = scenarioDirectory) {
  const seen = new Map();
  const problems = [];
  const scenarios = readScenarioFiles(directory).flatMap(({ file, text, document }) =>
    expand(document).map((scenario) => {
      if (seen.has(scenario.id)) {
        // An expanded BFCL id (bfcl-irrelevance-0) is written irrelevance_0 in its file.
        const written = [scenario.id, scenario.id.replace(/^bfcl-/, '').replaceAll('-', '_')];
        const index = text.split('\n').findIndex((line) => written.some((id) => line.includes(id)));
        problems.push(
          new ScenarioProblem({
            file,
            line: index + 1 || 1,
            column: 1,
            message: `scenario id "${scenario.id}" is used twice (first in ${relative(process.cwd(), seen.get(scenario.id))})`,
          }),
        );
      }
      seen.set(scenario.id, file);
      return scenario;
    }),
  );
  if (problems.length > 0) throw new ScenarioFileError(problems, process.cwd());
  return filter ? scenarios.filter((scenario) => new RegExp(filter).test(scenario.id)) : scenarios;
}
