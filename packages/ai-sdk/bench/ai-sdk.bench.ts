// One user turn through the AI SDK's own loop, with @patchbay/ai-sdk and without it, interleaved in one
// process (issue target: patchbay / plain ≤ 1.10 per turn):
// - patchbay: `generateText` (and `streamText`, read to the end) with `patchbay.turn()` settings spread
//   in: the tool executed by the orchestrator's gate, `prepareStep` capturing status fresh per step;
// - plain: the same call with an AI SDK tool of the same name, description and JSON Schema whose
//   `execute` calls the same function directly.
// The model is the scripted one of @patchbay/turn/testing: it calls the read tool on its first call and
// replies text once it sees the tool result. A breakdown of the added time (the session's own steps,
// the gate alone) is measured the same way. Writes bench/results/ai-sdk.json at the repository root.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
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
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createPatchbay } from '../src/index.js';

const resultsFile = join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'ai-sdk.json');
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

const patchbay = createPatchbay({ subject, orchestrator, connectors, statusSource, identity });
const plainTools = {
  [toolName]: tool({
    description,
    inputSchema: jsonSchema<{ key: string }>(inputJsonSchema),
    execute: (args) => getIssue(args),
  }),
};
const messages = [{ role: 'user' as const, content: userText }];

// The same inputs without Patchbay's code: Patchbay's static system prompt, one captured context
// block on the user message and the meta-tool beside the tool, as fixed values — what the framework
// is handed, so the difference to the Patchbay path is Patchbay's own per-step and per-call work.
const sample = await patchbay.turn({ userText });
const samplePlan = await sample.session.prepareStep();
const sameInputsMessages = [
  {
    role: 'user' as const,
    content: [
      { type: 'text' as const, text: samplePlan.context },
      { type: 'text' as const, text: userText },
    ],
  },
];
const refreshDefinition = samplePlan.tools.find(
  (candidate) => candidate.name === 'refresh_connector_status',
)!;
const sameInputsTools = {
  ...plainTools,
  refresh_connector_status: tool({
    description: refreshDefinition.description,
    inputSchema: jsonSchema<Record<string, never>>(refreshDefinition.inputJsonSchema),
    execute: async () => ({}),
  }),
};
const sameInputsInstructions = sample.settings.instructions;

/** Checks one turn's result: one tool call and the scripted reply, else the bench measures something else. */
function check(path: string, text: string, toolResults: number) {
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

const paths = {
  patchbay_generateText: async () => {
    const turn = await patchbay.turn({ userText });
    const result = await generateText({
      model: patchbayModel,
      messages,
      stopWhen: stepCountIs(8),
      ...turn.settings,
    });
    check('patchbay_generateText', result.text, turn.calls.length);
    done(patchbayModel);
  },
  plain_generateText: async () => {
    const result = await generateText({
      model: plainModel,
      instructions: identity,
      messages,
      stopWhen: stepCountIs(8),
      tools: plainTools,
    });
    check('plain_generateText', result.text, result.steps.flatMap((step) => step.toolResults).length);
    done(plainModel);
  },
  same_inputs_generateText: async () => {
    const result = await generateText({
      model: plainModel,
      instructions: sameInputsInstructions,
      messages: sameInputsMessages,
      stopWhen: stepCountIs(8),
      tools: sameInputsTools,
    });
    check('same_inputs_generateText', result.text, result.steps.flatMap((step) => step.toolResults).length);
    done(plainModel);
  },
  patchbay_streamText: async () => {
    const turn = await patchbay.turn({ userText });
    const result = streamText({ model: patchbayModel, messages, stopWhen: stepCountIs(8), ...turn.settings });
    for await (const _ of result.fullStream);
    check('patchbay_streamText', await result.text, turn.calls.length);
    done(patchbayModel);
  },
  plain_streamText: async () => {
    const result = streamText({
      model: plainModel,
      instructions: identity,
      messages,
      stopWhen: stepCountIs(8),
      tools: plainTools,
    });
    for await (const _ of result.fullStream);
    check(
      'plain_streamText',
      await result.text,
      (await result.steps).flatMap((step) => step.toolResults).length,
    );
    done(plainModel);
  },
};

const started = performance.now();
const figures = await measureInterleaved(paths, options);

// Where the added time goes: Patchbay's own steps of one turn, without the SDK around them.
const sessionOptions = { subject, orchestrator, connectors, statusSource, identity, userText };
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
  turn_setup: async () => {
    await patchbay.turn({ userText });
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

// The same pieces timed inside real turns (generateText with Patchbay, not interleaved): what each of
// Patchbay's hooks takes while the SDK drives it; the rest of the added time is the SDK's own work
// with the larger settings, and the garbage collector.
const inTurn: Record<string, number[]> = {
  turn_setup: [],
  prepareStep_hook: [],
  session_prepareStep: [],
  tool_execute: [],
  session_call: [],
  toolApproval: [],
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
  const turn = await timer(spent.turn_setup!, () => patchbay.turn({ userText }))();
  const session = turn.session as {
    prepareStep: typeof turn.session.prepareStep;
    call: typeof turn.session.call;
  };
  session.prepareStep = timer(spent.session_prepareStep!, session.prepareStep.bind(session));
  session.call = timer(spent.session_call!, session.call.bind(session));
  const { tools, prepareStep, toolApproval } = turn.settings;
  const settings = {
    ...turn.settings,
    tools: Object.fromEntries(
      Object.entries(tools).map(([name, definition]) => [
        name,
        { ...definition, execute: timer(spent.tool_execute!, definition.execute!) },
      ]),
    ) as typeof tools,
    prepareStep: timer(spent.prepareStep_hook!, prepareStep),
    toolApproval:
      typeof toolApproval === 'function' ? timer(spent.toolApproval!, toolApproval) : toolApproval,
  };
  const result = await generateText({
    model: patchbayModel,
    messages,
    stopWhen: stepCountIs(8),
    ...settings,
  });
  spent.whole_turn!.us = (performance.now() - at) * 1000;
  check('in-turn', result.text, turn.calls.length);
  done(patchbayModel);
  if (index >= options.warmup)
    for (const [name, value] of Object.entries(spent)) inTurn[name]!.push(value.us);
}
const seconds = (performance.now() - started) / 1000;

const minus = (left: readonly number[], right: readonly number[]) =>
  spreadOf(
    left.map((value, index) => value - right[index]!),
    1,
  );
const pair = (framework: 'generateText' | 'streamText') => {
  const withPatchbay = figures[`patchbay_${framework}`]!;
  const plain = figures[`plain_${framework}`]!;
  const ratio = ratioOf(withPatchbay.medianUsPerRound, plain.medianUsPerRound);
  return {
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
  };
};
const median = (name: keyof typeof breakdownPaths) => breakdown[name]!.medianUsPerRound;
const report = {
  description:
    'One user turn (the scripted model calls one read tool of one connected connector, reads its result, replies) through the AI SDK 7 loop: generateText / streamText (stream read to the end) with createPatchbay(...).turn() settings spread in (tools run by the orchestrator gate, prepareStep with fresh status from an in-memory status source) against the same call with a plain AI SDK tool (same name, description, JSON Schema via jsonSchema, execute calling the same function). Same process, interleaved rounds (measureInterleaved of @patchbay/testing/bench); per path the per-round median wall time of one turn and the process CPU time per turn, in µs, as {median,min,max} over the rounds; ratio = patchbay / plain per round. The breakdown measures Patchbay steps of one turn alone: patchbay.turn() (session, tool set), createTurnSession + allTools, + prepareStep (status capture, plan, context block), + session.call (call table and orchestrator.execute), orchestrator.execute alone, and the tool function alone.',
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
  options,
  generateText: pair('generateText'),
  streamText: pair('streamText'),
  // Against the framework handed the same prompt and tool set as fixed values: what Patchbay's own
  // code (per-step status, the block's placement, the gate) costs, apart from what its content costs.
  generateText_same_inputs: {
    same_inputs: {
      median_us_per_turn: spreadOf(figures.same_inputs_generateText!.medianUsPerRound, 1),
      cpu_us_per_turn: spreadOf(figures.same_inputs_generateText!.cpuUsPerRound, 1),
    },
    ratio_patchbay_to_same_inputs: ratioOf(
      figures.patchbay_generateText!.medianUsPerRound,
      figures.same_inputs_generateText!.medianUsPerRound,
    ),
    ratio_same_inputs_to_plain: ratioOf(
      figures.same_inputs_generateText!.medianUsPerRound,
      figures.plain_generateText!.medianUsPerRound,
    ),
  },
  breakdown_us: {
    direct_function: spreadOf(median('direct_function'), 2),
    gate_execute: spreadOf(median('gate_execute'), 1),
    patchbay_turn_setup: spreadOf(median('turn_setup'), 1),
    session_setup: spreadOf(median('session_setup'), 1),
    session_prepareStep: minus(median('session_setup_prepareStep'), median('session_setup')),
    session_call: minus(median('session_setup_prepareStep_call'), median('session_setup_prepareStep')),
    session_call_beyond_gate: spreadOf(
      median('session_setup_prepareStep_call').map(
        (value, index) =>
          value - median('session_setup_prepareStep')[index]! - median('gate_execute')[index]!,
      ),
      1,
    ),
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

for (const framework of ['generateText', 'streamText'] as const) {
  const figure = report[framework];
  console.log(
    `${framework}: patchbay ${figure.patchbay.median_us_per_turn.median} µs/turn (cpu ${figure.patchbay.cpu_us_per_turn.median}), plain ${figure.plain.median_us_per_turn.median} µs/turn (cpu ${figure.plain.cpu_us_per_turn.median}); ratio ${figure.ratio.latency.median} [${figure.ratio.latency.min}–${figure.ratio.latency.max}], cpu ratio ${figure.ratio.cpu.median}; added ${figure.added_us_per_turn.latency.median} µs; target ≤ ${ratioTarget}: ${figure.met ? 'met' : 'not met'}`,
  );
}
console.log(
  `breakdown (µs): turn() ${report.breakdown_us.patchbay_turn_setup.median}, prepareStep ${report.breakdown_us.session_prepareStep.median}, session.call ${report.breakdown_us.session_call.median} (gate alone ${report.breakdown_us.gate_execute.median}), tool function ${report.breakdown_us.direct_function.median}`,
);
console.log(`inside real turns (median µs): ${JSON.stringify(report.in_turn_median_us)}`);
console.log(`${report.seconds} s; wrote ${resultsFile}`);
