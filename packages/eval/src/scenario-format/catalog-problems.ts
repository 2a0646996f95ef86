// A document's problems with what is installed (see catalog-review.ts), for each file form: scenarios,
// one scenario, `bfcl_irrelevance`, `bfcl_miss_param`.
import type { Connector } from '@patchbay/connector';
import {
  type BfclItem,
  type DataPath,
  entriesOf,
  type FoundProblem,
  isRecord,
  itemsOf,
  type RawMap,
  type ScenarioCatalog,
} from './catalog.js';
import { CatalogReview, type ExpectContext, type ToolsByName } from './catalog-review.js';

/** The tools of a scenario: its connectors', its MCP servers' and memory's, and what its adversary calls. */
function scenarioTools(review: CatalogReview, scenario: RawMap, connectors: readonly Connector[]) {
  const { catalog } = review;
  const tools = review.toolsOf(connectors);
  // MCP servers and memory add their tools, and their names to what the status block may show.
  const serverIds: string[] = [];
  for (const [name] of entriesOf(scenario.mcp)) {
    serverIds.push(name);
    for (const tool of catalog.mcpTools ?? []) tools.set(`${name}_${tool}`, { name: `${name}_${tool}` });
  }
  if (scenario.functions === true)
    for (const tool of catalog.functionTools ?? []) tools.set(tool, { name: tool });
  if ('memory' in scenario) {
    serverIds.push('memory');
    for (const tool of catalog.memoryTools ?? []) tools.set(tool, { name: tool });
  }
  // An adversary may call a tool no connector has; its checks may then name that tool.
  if ('adversary' in scenario)
    for (const [, turn] of itemsOf(scenario.turns))
      for (const [, step] of itemsOf(isRecord(turn) ? turn.script : undefined))
        for (const [, call] of itemsOf(isRecord(step) ? step.calls : undefined))
          if (isRecord(call) && typeof call.tool === 'string' && !tools.has(call.tool))
            tools.set(call.tool, { name: call.tool });
  return { tools, serverIds };
}

/** The extensions a scenario's keys need, and the store it names. */
function checkExtensions(review: CatalogReview, scenario: RawMap, path: DataPath) {
  const { catalog } = review;
  review.needsExtension(scenario, 'mcp', path, 'mcp', catalog.mcpTools);
  review.needsExtension(scenario, 'memory', path, 'memory', catalog.memoryTools);
  review.needsExtension(scenario, 'agentdojo', path, 'data.agentdojo', catalog.agentdojo);
  review.needsExtension(scenario, 'store', path, 'store', catalog.databases);
  review.needsExtension(scenario, 'functions', path, 'callers.agents', catalog.functionTools);
  if (
    typeof scenario.store === 'string' &&
    scenario.store !== 'all' &&
    catalog.databases &&
    !catalog.databases.includes(scenario.store)
  )
    review.report(
      [...path, 'store'],
      `the config's store offers no ${scenario.store} database here (it offers: ${catalog.databases.join(', ')}); \`all\` runs on every one it offers`,
    );
}

/** The keys of a scenario itself (not its turns) that name what is installed. */
function checkScenarioKeys(
  review: CatalogReview,
  scenario: RawMap,
  path: DataPath,
  { connectors, tools, packaged }: ExpectContext,
) {
  const { catalog } = review;
  const connectorIds = connectors.map((candidate) => candidate.id);
  for (const [name, server] of entriesOf(scenario.mcp))
    for (const [index, id] of itemsOf(isRecord(server) ? server.requires : undefined))
      review.unknown([...path, 'mcp', name, 'requires', index], 'connector', id, connectorIds);
  if (packaged) review.needsExtension(scenario, 'http', path, 'service', catalog.responses);
  review.checkTargets(scenario.targets, [...path, 'targets']);
  if ('adversary' in scenario)
    review.unknown([...path, 'adversary'], 'adversary', scenario.adversary, catalog.adversaries ?? []);
  review.checkStates(scenario.connectors, [...path, 'connectors'], connectors);
  if (packaged && 'fixtures' in scenario)
    review.report(
      [...path, 'fixtures'],
      '"fixtures" answer stand-in tools; with `packages:` use `http` routes',
      {
        atKey: true,
      },
    );
  for (const [name] of entriesOf(scenario.fixtures))
    review.unknown([...path, 'fixtures', name], 'tool', name, [...tools.keys()], true);
  if (!packaged && 'http' in scenario)
    review.report(
      [...path, 'http'],
      '"http" routes need `packages:` (stand-in connectors send no requests)',
      {
        atKey: true,
      },
    );
  review.checkRoutes(scenario.http, [...path, 'http']);
  checkAgentDojo(review, scenario.agentdojo, [...path, 'agentdojo']);
}

/** The AgentDojo attack, suite and task a scenario injects. */
function checkAgentDojo(review: CatalogReview, agentdojo: unknown, at: DataPath) {
  const attacks = review.catalog.agentdojo;
  if (!isRecord(agentdojo) || !attacks) return;
  const { attack, suite, task } = agentdojo;
  review.unknown([...at, 'attack'], 'AgentDojo attack', attack, Object.keys(attacks.attack_templates));
  review.unknown([...at, 'suite'], 'AgentDojo suite', suite, Object.keys(attacks.injection_goals));
  const goals = attacks.injection_goals[suite as string];
  if (goals)
    review.unknown(
      [...at, 'task'],
      ['AgentDojo task', String(suite)],
      task,
      goals.map((goal) => goal.task),
    );
}

/** One turn of a scenario: its status changes, script, routes and checks. */
function checkTurn(
  review: CatalogReview,
  scenario: RawMap,
  turn: RawMap,
  at: DataPath,
  index: number,
  context: ExpectContext,
) {
  const { connectors, packaged } = context;
  review.checkStates(turn.set, [...at, 'set'], connectors);
  if ('script' in turn && !('adversary' in scenario))
    review.report([...at, 'script'], '"script" needs `adversary:` on the scenario', { atKey: true });
  for (const [step, item] of itemsOf(turn.script))
    if (isRecord(item)) review.checkStates(item.set, [...at, 'script', step, 'set'], connectors);
  if (!packaged && 'http' in turn)
    review.report([...at, 'http'], '"http" routes need `packages:` on the scenario', { atKey: true });
  else review.needsExtension(turn, 'http', at, 'service', review.catalog.responses);
  review.checkRoutes(turn.http, [...at, 'http']);
  if ('with_next' in turn && index === (scenario.turns as unknown[]).length - 1)
    review.report([...at, 'with_next'], '"with_next" on the last turn: no turn follows it', { atKey: true });
  if ('memory' in turn && !('memory' in scenario))
    review.report([...at, 'memory'], '"memory" needs `memory:` on the scenario', { atKey: true });
  review.checkExpect(turn.expect, [...at, 'expect'], context);
}

function checkScenario(review: CatalogReview, scenario: unknown, path: DataPath) {
  if (!isRecord(scenario)) return;
  const packageIds = Object.keys(review.catalog.packages ?? {});
  for (const [index, id] of itemsOf(scenario.packages))
    review.unknown([...path, 'packages', index], 'connector package', id, packageIds);
  const packaged = Array.isArray(scenario.packages);
  const connectors = review.connectorsOf(scenario);
  const { tools, serverIds } = scenarioTools(review, scenario, connectors);
  const context: ExpectContext = {
    tools,
    connectors,
    packaged,
    serverIds,
    memory: 'memory' in scenario,
    mcp: 'mcp' in scenario,
  };
  checkExtensions(review, scenario, path);
  checkScenarioKeys(review, scenario, path, context);
  for (const [index, turn] of itemsOf(scenario.turns))
    if (isRecord(turn)) checkTurn(review, scenario, turn, [...path, 'turns', index], index, context);
}

/** What the checks of a BFCL form's cases get. */
interface BfclContext {
  tools: ToolsByName;
  connectors: readonly Connector[];
  cases: Map<string, BfclItem> | undefined;
}

function checkBfcl(
  review: CatalogReview,
  spec: unknown,
  path: DataPath,
  eachCase: (context: BfclContext) => void,
) {
  if (!isRecord(spec)) return;
  const { catalog } = review;
  const connectors = catalog.connectors;
  review.checkTargets(spec.targets, [...path, 'targets']);
  review.checkStates(spec.connectors, [...path, 'connectors'], connectors);
  if (!catalog.bfcl) review.report([...path, 'file'], 'BFCL scenarios need `data.bfcl` in the eval config');
  const cases = typeof spec.file === 'string' ? catalog.bfcl?.(spec.file) : undefined;
  if (typeof spec.file === 'string' && catalog.bfcl && !cases)
    review.report([...path, 'file'], `no BFCL data file "${spec.file}" (the config's data.bfcl has none)`);
  eachCase({ tools: review.toolsOf(connectors), connectors, cases });
}

function checkBfclIrrelevance(review: CatalogReview, spec: unknown) {
  const path = ['bfcl_irrelevance'];
  checkBfcl(review, spec, path, ({ tools, connectors, cases }) => {
    const irrelevance = spec as RawMap;
    for (const [index, id] of itemsOf(irrelevance.ids))
      if (cases) review.unknown([...path, 'ids', index], 'BFCL id', id, [...cases.keys()]);
    review.checkExpect(irrelevance.expect, [...path, 'expect'], { tools, connectors, packaged: false });
  });
}

function checkBfclMissParam(review: CatalogReview, spec: unknown) {
  const path = ['bfcl_miss_param'];
  checkBfcl(review, spec, path, ({ tools, cases }) => {
    for (const [index, item] of itemsOf((spec as RawMap).cases)) {
      if (!isRecord(item)) continue;
      const at = [...path, 'cases', index];
      review.checkTool([...at, 'tool'], item.tool, tools);
      for (const [field] of entriesOf(item.args))
        review.checkArguments([...at, 'args', field], item.tool, field, tools);
      const found = cases?.get(item.id as string);
      if (cases && !found) review.unknown([...at, 'id'], 'BFCL id', item.id, [...cases.keys()]);
      for (const key of ['ask_turn', 'answer_turn']) {
        const turn = item[key];
        if (found && Number.isInteger(turn) && !found.question?.[turn as number])
          review.report(
            [...at, key],
            `${item.id} has no turn ${turn} (it has ${found.question?.length ?? 0})`,
          );
      }
    }
  });
}

/**
 * The problems of a raw document with what `catalog` says is installed: connector ids, tool names and
 * their input fields, scopes, service responses, baselines, adversaries and external data.
 */
export function catalogProblems(document: unknown, catalog: ScenarioCatalog): FoundProblem[] {
  const review = new CatalogReview(catalog);
  if (!isRecord(document)) return review.problems;
  if ('scenarios' in document)
    for (const [index, scenario] of itemsOf(document.scenarios))
      checkScenario(review, scenario, ['scenarios', index]);
  else if ('bfcl_irrelevance' in document) checkBfclIrrelevance(review, document.bfcl_irrelevance);
  else if ('bfcl_miss_param' in document) checkBfclMissParam(review, document.bfcl_miss_param);
  else checkScenario(review, document, []);
  return review.problems;
}
