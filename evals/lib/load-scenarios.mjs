// Loads the scenario data files (scenarios/*.yaml) and expands the ones built from external data
// (BFCL slices, AgentDojo payloads in evals/data/) into plain scenarios.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const here = new URL('..', import.meta.url).pathname;

function readJsonLines(file) {
  return readFileSync(join(here, 'data/bfcl', file.replace(/\.json$/, '.jsonl')), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

function agentdojoPayload({ attack, suite, task }) {
  const attacks = JSON.parse(readFileSync(join(here, 'data/agentdojo/attacks.json'), 'utf8'));
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

/** Every scenario, in file order; `filter` keeps the ids it matches. */
export function loadScenarios(filter) {
  const directory = join(here, 'scenarios');
  const scenarios = readdirSync(directory)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .flatMap((name) => expand(parse(readFileSync(join(directory, name), 'utf8'))));
  const ids = new Set();
  for (const scenario of scenarios) {
    if (ids.has(scenario.id)) throw new Error(`duplicate scenario id ${scenario.id}`);
    ids.add(scenario.id);
  }
  return filter ? scenarios.filter((scenario) => new RegExp(filter).test(scenario.id)) : scenarios;
}
