// One user turn through LangGraph's own loop, with @patchbay/langchain and without it, interleaved in one
// process (issue target: patchbay / plain ≤ 1.10 per turn):
// - patchbay: `createPatchbayAgentGraph` over `createPatchbayToolkit` (made once, as for one
//   conversation; each turn's new human message starts a new turn session): fresh status and the
//   context block before every model call, only runnable tools bound, calls through the orchestrator's
//   gate in `PatchbayToolNode`;
// - plain: a StateGraph over MessagesAnnotation with a model node (the system prompt, then the messages,
//   to the model bound to the tools) and the prebuilt `ToolNode`, over a LangChain `tool()` of the same
//   name, description and JSON Schema that calls the same function directly.
// Both graphs have no checkpointer (the read tool needs no approval) and drive the same scripted model
// (@patchbay/turn/testing) through this package's `chatModelFromLanguageModel` bridge. The model calls
// the read tool on its first call and replies text once it sees the tool result.
// Writes bench/results/langchain.json at the repository root.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
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
import { chatModelFromLanguageModel, createPatchbayAgentGraph, createPatchbayToolkit } from '../src/index.js';

const resultsFile = join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'langchain.json');
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

// Patchbay: the ready graph over one toolkit.
const sessionOptions = { subject, orchestrator, connectors, statusSource, identity };
const toolkit = await createPatchbayToolkit(sessionOptions);
const patchbayGraph = createPatchbayAgentGraph({ model: chatModelFromLanguageModel(patchbayModel), toolkit });

// Plain: the same loop with LangGraph's own parts.
const plainTools = [
  tool(async (args: { key: string }) => JSON.stringify(await getIssue(args)), {
    name: toolName,
    description,
    schema: inputJsonSchema,
  }),
];
const boundPlainModel = chatModelFromLanguageModel(plainModel).bindTools(plainTools);
const plainGraph = new StateGraph(MessagesAnnotation)
  .addNode('agent', async (state, config) => ({
    messages: [await boundPlainModel.invoke([new SystemMessage(identity), ...state.messages], config)],
  }))
  .addNode('tools', new ToolNode(plainTools))
  .addEdge(START, 'agent')
  .addConditionalEdges(
    'agent',
    (state) => {
      const last = state.messages.at(-1);
      return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
    },
    ['tools', END],
  )
  .addEdge('tools', 'agent')
  .compile();

/** Checks one turn's result: one tool result and the scripted reply, else the bench measures something else. */
function check(path: string, messages: readonly BaseMessage[]) {
  const last = messages.at(-1);
  const toolResults = messages.filter((message) => ToolMessage.isInstance(message)).length;
  if (last?.content !== reply || toolResults !== 1) {
    throw new Error(
      `${path}: expected one tool result and the reply, got ${toolResults} and ${JSON.stringify(last?.content)}`,
    );
  }
}
const done = (model: typeof plainModel) => {
  // The scripted model keeps every call; emptied per turn so the paths do not grow memory.
  model.calls.length = 0;
};
const config = { recursionLimit: 18 };

async function patchbayTurn() {
  const state = await patchbayGraph.invoke({ messages: [new HumanMessage(userText)] }, config);
  check('patchbay', state.messages);
  done(patchbayModel);
}
const paths = {
  patchbay: patchbayTurn,
  plain: async () => {
    const state = await plainGraph.invoke({ messages: [new HumanMessage(userText)] }, config);
    check('plain', state.messages);
    done(plainModel);
  },
};

const started = performance.now();
const figures = await measureInterleaved(paths, options);

// Where the added time goes: Patchbay's own steps of one turn, without the graph around them.
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
  toolkit_prepareStep_new_turn: async () => {
    await toolkit.prepareStep([new HumanMessage(userText)]);
  },
  session_setup: async () => {
    await createTurnSession({ ...sessionOptions, userText }).allTools();
  },
  session_setup_prepareStep: async () => {
    const session = createTurnSession({ ...sessionOptions, userText });
    await session.allTools();
    await session.prepareStep();
  },
  session_setup_prepareStep_call: async () => {
    const session = createTurnSession({ ...sessionOptions, userText });
    await session.allTools();
    await session.prepareStep();
    await session.call(toolName, toolInput, { toolCallId: 'call-1' });
  },
};
const breakdown = await measureInterleaved(breakdownPaths, options);

// The same pieces timed inside real Patchbay turns (not interleaved): the toolkit's per-step hook (a new
// session on the turn's first step, the status capture, the placed context) and the session's calls;
// the rest of the added time is the graph's own work with Patchbay's nodes and the collector.
const inTurn: Record<string, number[]> = { toolkit_prepareStep: [], session_call: [], whole_turn: [] };
const spent = { toolkit_prepareStep: 0, session_call: 0 };
const own = toolkit as { prepareStep: typeof toolkit.prepareStep };
const prepareStep = own.prepareStep.bind(toolkit);
own.prepareStep = async (messages) => {
  const at = performance.now();
  const before = toolkit.session;
  try {
    return await prepareStep(messages);
  } finally {
    spent.toolkit_prepareStep += (performance.now() - at) * 1000;
    const session = toolkit.session as { call: typeof toolkit.session.call };
    if (session !== before) {
      const call = session.call.bind(session);
      session.call = async (...args) => {
        const callAt = performance.now();
        try {
          return await call(...args);
        } finally {
          spent.session_call += (performance.now() - callAt) * 1000;
        }
      };
    }
  }
};
for (let index = 0; index < options.warmup + options.rounds * options.perRound; index += 1) {
  spent.toolkit_prepareStep = 0;
  spent.session_call = 0;
  const at = performance.now();
  await patchbayTurn();
  if (index < options.warmup) continue;
  inTurn.whole_turn!.push((performance.now() - at) * 1000);
  inTurn.toolkit_prepareStep!.push(spent.toolkit_prepareStep);
  inTurn.session_call!.push(spent.session_call);
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
    "One user turn (the scripted model calls one read tool of one connected connector, reads its result, replies) through LangGraph's own loop: createPatchbayAgentGraph over one createPatchbayToolkit (a new turn session per new human message; fresh status from an in-memory status source and the context block before every model call, only runnable tools bound, calls through the orchestrator gate in PatchbayToolNode), against a plain StateGraph (model node with the system prompt + prebuilt ToolNode) over a LangChain tool() of the same name, description and JSON Schema that calls the same function. No checkpointer on either; the same scripted model behind this package's chatModelFromLanguageModel. Same process, interleaved rounds (measureInterleaved of @patchbay/testing/bench); per path the per-round median wall time of one turn and the process CPU time per turn, in µs, as {median,min,max} over the rounds; ratio = patchbay / plain per round. The breakdown measures Patchbay steps of one turn alone: toolkit.prepareStep of a new human message (new session, status capture, placed context), createTurnSession + allTools, + prepareStep, + session.call (call table and orchestrator.execute), orchestrator.execute alone, the tool function alone; in_turn_median_us times toolkit.prepareStep and session.call inside real turns.",
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
    toolkit_prepareStep_new_turn: spreadOf(median('toolkit_prepareStep_new_turn'), 1),
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
  `graph.invoke: patchbay ${report.patchbay.median_us_per_turn.median} µs/turn (cpu ${report.patchbay.cpu_us_per_turn.median}), plain ${report.plain.median_us_per_turn.median} µs/turn (cpu ${report.plain.cpu_us_per_turn.median}); ratio ${ratio.median} [${ratio.min}–${ratio.max}], cpu ratio ${report.ratio.cpu.median}; added ${report.added_us_per_turn.latency.median} µs; target ≤ ${ratioTarget}: ${report.met ? 'met' : 'not met'}`,
);
console.log(
  `breakdown (µs): toolkit.prepareStep (new turn) ${report.breakdown_us.toolkit_prepareStep_new_turn.median}, session prepareStep ${report.breakdown_us.session_prepareStep.median}, session.call ${report.breakdown_us.session_call.median} (gate alone ${report.breakdown_us.gate_execute.median}), tool function ${report.breakdown_us.direct_function.median}`,
);
console.log(`inside real turns (median µs): ${JSON.stringify(report.in_turn_median_us)}`);
console.log(`${report.seconds} s; wrote ${resultsFile}`);
