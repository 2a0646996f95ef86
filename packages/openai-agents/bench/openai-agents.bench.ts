// One user turn through the OpenAI Agents SDK's own loop (`Runner.run`), with @patchbay/openai-agents and
// without it, interleaved in one process (issue target: patchbay / plain ≤ 1.10 per turn):
// - patchbay: per turn `createPatchbayAgentTools` (tools through the orchestrator's gate, dynamic
//   instructions with fresh status, isEnabled per model call) and an `Agent` over them, run with
//   `patchbay.runOptions`, as the README shows;
// - plain: one `Agent` with a `tool()` of the same name, description and JSON Schema whose `execute`
//   calls the same function directly.
// Both drive the same scripted model (@patchbay/turn/testing) through this package's `aiSdkModel`
// bridge, with tracing disabled: the model side is equal. The model calls the read tool on its first
// call and replies text once it sees the tool result. Writes bench/results/openai-agents.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { Agent, Runner, tool } from '@openai/agents';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import {
  benchGetIssue,
  benchReadTool,
  benchReply,
  benchTurnScript,
  createBenchTracker,
  measureInterleaved,
  ratioOf,
  spreadOf,
} from '@patchbay/testing/bench';
import { createTurnSession } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { aiSdkModel, createPatchbayAgentTools } from '../src/index.js';

const resultsFile = join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'openai-agents.json');
const subject = 'bench-user';
const identity = 'You are a support assistant.';
const userText = 'What is the status of issue WEB-12?';
const reply = benchReply;
const ratioTarget = 1.1;
const options = { warmup: 200, rounds: 10, perRound: 200 };

// The turn both paths run: one read tool of a tracker, the same function behind it, the same script.
const { name: toolName, description, inputJsonSchema } = benchReadTool;
const getIssue = benchGetIssue;
const tracker = createBenchTracker();
const connectors = [tracker];
const statusSource = createInMemoryStatusSource();
statusSource.connect(subject, 'tracker', { credentials: { token: 'tracker-bench-token-1' } });
const orchestrator = createOrchestrator({ statusSource, connectors });
await orchestrator.start();

// The plain tool declares the JSON Schema Patchbay offers the model for this tool (checked here).
const offered = (
  await createTurnSession({ subject, orchestrator, connectors, statusSource }).allTools()
).find((definition) => definition.name === toolName);
if (JSON.stringify(offered?.inputJsonSchema) !== JSON.stringify(inputJsonSchema)) {
  throw new Error(`the plain schema differs from Patchbay's: ${JSON.stringify(offered?.inputJsonSchema)}`);
}

const script = benchTurnScript;
const patchbayModel = createScriptedModel(script);
const plainModel = createScriptedModel(script);
const patchbayAgentsModel = aiSdkModel(patchbayModel);
const plainAgentsModel = aiSdkModel(plainModel);

const runner = new Runner({ tracingDisabled: true });
const sessionOptions = { subject, orchestrator, connectors, statusSource, identity, userText };
const plainAgent = new Agent({
  name: 'plain',
  instructions: identity,
  tools: [
    tool({
      name: toolName,
      description,
      parameters: inputJsonSchema as never,
      strict: false,
      execute: (args) => getIssue(args as { key: string }),
    }),
  ],
  model: plainAgentsModel,
});

/** Checks one turn's result: one tool call and the scripted reply, else the bench measures something else. */
function check(path: string, text: unknown, toolResults: number) {
  if (text !== reply || toolResults !== 1) {
    throw new Error(
      `${path}: expected one tool result and the reply, got ${toolResults} and ${JSON.stringify(text)}`,
    );
  }
}
const done = (model: typeof plainModel) => {
  // The scripted model keeps every call; emptied per turn so the paths do not grow memory.
  model.calls.length = 0;
};

/** One Patchbay turn: a new toolkit and agent per user turn, as the README says. */
async function patchbayTurn(wrap?: (patchbay: Awaited<ReturnType<typeof createPatchbayAgentTools>>) => void) {
  const patchbay = await createPatchbayAgentTools(sessionOptions);
  wrap?.(patchbay);
  const agent = new Agent({
    name: 'patchbay',
    instructions: patchbay.instructions,
    tools: patchbay.tools,
    model: patchbay.traceModel(patchbayAgentsModel),
  });
  const result = await runner.run(agent, userText, { maxTurns: 8, ...patchbay.runOptions });
  check('patchbay', result.finalOutput, patchbay.session.calls.length);
  done(patchbayModel);
}

const paths = {
  patchbay: () => patchbayTurn(),
  plain: async () => {
    const result = await runner.run(plainAgent, userText, { maxTurns: 8 });
    check(
      'plain',
      result.finalOutput,
      result.newItems.filter((item) => item.type === 'tool_call_output_item').length,
    );
    done(plainModel);
  },
};

const started = performance.now();
const figures = await measureInterleaved(paths, options);

// Where the added time goes: Patchbay's own steps of one turn, without the SDK around them.
const toolInput = { key: 'WEB-12' };
let correlation = 0;
const breakdownPaths = {
  direct_function: async () => {
    await getIssue(toolInput);
  },
  gate_execute: async () => {
    correlation += 1;
    await orchestrator.execute(toolName, toolInput, { subject, correlationId: `bench:${correlation}` });
  },
  agent_tools_setup: async () => {
    const patchbay = await createPatchbayAgentTools(sessionOptions);
    new Agent({ name: 'patchbay', instructions: patchbay.instructions, tools: patchbay.tools });
  },
  session_setup: async () => {
    await createTurnSession(sessionOptions).allTools();
  },
  session_setup_prepareStep: async () => {
    const session = createTurnSession(sessionOptions);
    await session.allTools();
    await session.prepareStep();
  },
  session_setup_prepareStep_call: async () => {
    const session = createTurnSession(sessionOptions);
    await session.allTools();
    await session.prepareStep();
    await session.call(toolName, toolInput, { toolCallId: 'call-1' });
  },
};
const breakdown = await measureInterleaved(breakdownPaths, options);

// The same pieces timed inside real Patchbay turns (not interleaved): what the session's steps and the
// dynamic instructions take while the SDK drives them; the rest of the added time is the SDK's own
// work with the larger agent (longer instructions, two tools, isEnabled per tool) and the collector.
const inTurn: Record<string, number[]> = {
  session_prepareStep: [],
  instructions: [],
  session_call: [],
  whole_turn: [],
};
const timer =
  <Args extends unknown[], Result>(spent: { us: number }, body: (...args: Args) => Result) =>
  async (...args: Args): Promise<Awaited<Result>> => {
    const at = performance.now();
    try {
      return await body(...args);
    } finally {
      spent.us += (performance.now() - at) * 1000;
    }
  };
for (let index = 0; index < options.warmup + options.rounds * options.perRound; index += 1) {
  const spent = Object.fromEntries(Object.keys(inTurn).map((name) => [name, { us: 0 }]));
  const at = performance.now();
  await patchbayTurn((patchbay) => {
    const session = patchbay.session as {
      prepareStep: typeof patchbay.session.prepareStep;
      call: typeof patchbay.session.call;
    };
    session.prepareStep = timer(spent.session_prepareStep!, session.prepareStep.bind(session));
    session.call = timer(spent.session_call!, session.call.bind(session));
    const own = patchbay as { instructions: typeof patchbay.instructions };
    own.instructions = timer(spent.instructions!, own.instructions.bind(patchbay));
  });
  spent.whole_turn!.us = (performance.now() - at) * 1000;
  if (index >= options.warmup)
    for (const [name, value] of Object.entries(spent)) inTurn[name]!.push(value.us);
}
const seconds = (performance.now() - started) / 1000;

const minus = (left: readonly number[], right: readonly number[]) =>
  spreadOf(
    left.map((value, index) => value - right[index]!),
    1,
  );
const withPatchbay = figures.patchbay!;
const plain = figures.plain!;
const ratio = ratioOf(withPatchbay.medianUsPerRound, plain.medianUsPerRound);
const median = (name: keyof typeof breakdownPaths) => breakdown[name]!.medianUsPerRound;
const report = {
  description:
    "One user turn (the scripted model calls one read tool of one connected connector, reads its result, replies) through @openai/agents' Runner.run: per turn createPatchbayAgentTools (tools run by the orchestrator gate, dynamic instructions with fresh status from an in-memory status source, isEnabled per model call, runOptions, traceModel) and an Agent over them, against one plain Agent with a tool() of the same name, description and JSON Schema whose execute calls the same function. Both use the same scripted model behind this package's aiSdkModel bridge, tracingDisabled. Same process, interleaved rounds (measureInterleaved of @patchbay/testing/bench); per path the per-round median wall time of one turn and the process CPU time per turn, in µs, as {median,min,max} over the rounds; ratio = patchbay / plain per round. The breakdown measures Patchbay steps of one turn alone: createPatchbayAgentTools + new Agent, createTurnSession + allTools, + prepareStep (status capture, plan, context block), + session.call (call table and orchestrator.execute), orchestrator.execute alone, the tool function alone; in_turn_median_us times the session's steps and the instructions inside real turns.",
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
  options,
  patchbay: {
    median_us_per_turn: spreadOf(withPatchbay.medianUsPerRound, 1),
    cpu_us_per_turn: spreadOf(withPatchbay.cpuUsPerRound, 1),
  },
  plain: {
    median_us_per_turn: spreadOf(plain.medianUsPerRound, 1),
    cpu_us_per_turn: spreadOf(plain.cpuUsPerRound, 1),
  },
  ratio: {
    latency: ratio,
    cpu: ratioOf(withPatchbay.cpuUsPerRound, plain.cpuUsPerRound),
  },
  added_us_per_turn: {
    latency: minus(withPatchbay.medianUsPerRound, plain.medianUsPerRound),
    cpu: minus(withPatchbay.cpuUsPerRound, plain.cpuUsPerRound),
  },
  ratio_target: ratioTarget,
  met: ratio.median <= ratioTarget,
  breakdown_us: {
    direct_function: spreadOf(median('direct_function'), 2),
    gate_execute: spreadOf(median('gate_execute'), 1),
    agent_tools_setup: spreadOf(median('agent_tools_setup'), 1),
    session_setup: spreadOf(median('session_setup'), 1),
    session_prepareStep: minus(median('session_setup_prepareStep'), median('session_setup')),
    session_call: minus(median('session_setup_prepareStep_call'), median('session_setup_prepareStep')),
  },
  in_turn_median_us: Object.fromEntries(
    Object.entries(inTurn).map(([name, values]) => [name, spreadOf(values, 1).median]),
  ),
  breakdown_cpu_us: Object.fromEntries(
    Object.entries(breakdown).map(([name, figure]) => [name, spreadOf(figure.cpuUsPerRound, 1)]),
  ),
  seconds: Math.round(seconds),
  measured_at: new Date().toISOString(),
};
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);

console.log(
  `Runner.run: patchbay ${report.patchbay.median_us_per_turn.median} µs/turn (cpu ${report.patchbay.cpu_us_per_turn.median}), plain ${report.plain.median_us_per_turn.median} µs/turn (cpu ${report.plain.cpu_us_per_turn.median}); ratio ${ratio.median} [${ratio.min}–${ratio.max}], cpu ratio ${report.ratio.cpu.median}; added ${report.added_us_per_turn.latency.median} µs; target ≤ ${ratioTarget}: ${report.met ? 'met' : 'not met'}`,
);
console.log(
  `breakdown (µs): createPatchbayAgentTools + Agent ${report.breakdown_us.agent_tools_setup.median}, prepareStep ${report.breakdown_us.session_prepareStep.median}, session.call ${report.breakdown_us.session_call.median} (gate alone ${report.breakdown_us.gate_execute.median}), tool function ${report.breakdown_us.direct_function.median}`,
);
console.log(`inside real turns (median µs): ${JSON.stringify(report.in_turn_median_us)}`);
console.log(`${report.seconds} s; wrote ${resultsFile}`);
