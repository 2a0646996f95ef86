// The `sacp-chain` turn runner: runTurn's contract (its options in, a TurnResult out) over a real SACP
// chain of @patchbay/sacp, so `runners: [sacp-chain]` scenarios grade guardrails, routing by status and
// resume tokens with the same checks as every other loop.
//
// One chain, `relay`, defined per turn (as an app that defines its chains per request does), signed
// with one resume key for the process, so a token paused in one turn resumes in the next only because
// it verifies:
//
//   plan ──success, data.write──▶ [confirm-writes guardrail: failure] ──▶ confirm ──"yes"──▶ act ──▶ report
//     │                                                                     └─anything else: done, nothing written
//     ├─success──▶ summarise ──▶ report
//     └─failure──▶ report
//
// - plan, act and summarise are agent nodes run through `turnAgentRunner` (@patchbay/sacp/orchestrator):
//   runTurn with the scenario's model, status source, orchestrator (the gate) and the SACP protocol
//   prompt. plan is offered only the read tools of the connectors (it describes a write in
//   `data.write`, it cannot make one); act gets every tool; summarise none.
// - Guardrails, in order: `confirm-writes` (interventionGuardrail) turns plan's reply that carries a
//   write into a failure, so the write waits for the user; `redaction` (redactionGuardrail) removes
//   the run's credentials, token shapes and `ACCT-` account numbers from the message of every reply.
// - confirm and report are function nodes: confirm asks the user (clarification_needed: the chain
//   pauses) and, resumed with "yes", lets act run; report tells the user how the run ended.
// - A paused chain's resume token is kept per thread and consumed by the thread's next user turn,
//   which resumes the chain with the user's message as the answer (`chain.resume`, not a new run).
//
// What the checks read comes from what happened: the steps and calls are those of the node turns'
// own traces (`onTurn` of turnAgentRunner), the reply is what the chain ended with (the paused run's
// question, or its last reply's message), the stored thread holds the node turns' stored messages.
import { randomBytes } from 'node:crypto';
import { evalCredentials } from '@patchbay/eval';
import {
  createMemoryResumeLedger,
  defineChain,
  interventionGuardrail,
  redactionGuardrail,
  sacpStatuses,
} from '@patchbay/sacp';
import { turnAgentRunner } from '@patchbay/sacp/orchestrator';
import { runnerTrace } from './runner-trace.mjs';

// One key for the process: every turn defines the chain anew, and a token resumes only if it verifies.
const resumeKey = randomBytes(32);
// The chain is defined anew each turn: one ledger for the process, so a token resumes once across them.
const resumeLedger = createMemoryResumeLedger();

// Paused runs by thread store (one per scenario run), then thread id; runs without a store share one.
const pausedRuns = new WeakMap();
const withoutStore = {};

function pausedOf(threadStore) {
  if (!pausedRuns.has(threadStore)) pausedRuns.set(threadStore, new Map());
  return pausedRuns.get(threadStore);
}

/** A connector offering only its read tools (plan may look things up, never write). */
const readsOnly = (connector) => ({
  ...connector,
  tools: connector.tools.filter((tool) => tool.effect === 'read'),
});

/** What confirm asks the user about plan's write. */
function describeWrite(write) {
  if (!write || typeof write !== 'object') return 'the write you asked for';
  const args = write.args && typeof write.args === 'object' ? ` with ${JSON.stringify(write.args)}` : '';
  return `${write.tool ?? 'a write'}${args}`;
}

const confirmed = (answer) => typeof answer === 'string' && /^\s*(yes|y|confirm|go ahead)\b/i.test(answer);

/** The chain of one turn. */
function relayChain({ options, onTurn }) {
  const secrets = options.connectors.flatMap((connector) => Object.values(evalCredentials(connector)));
  const turnRunner = turnAgentRunner({
    orchestrator: options.orchestrator,
    statusSource: options.statusSource,
    subject: options.subject,
    model: options.model,
    connectors: (nodeId) =>
      nodeId === 'plan' ? options.connectors.map(readsOnly) : nodeId === 'act' ? options.connectors : [],
    ...(options.threadStore ? { threadStore: options.threadStore } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    onTurn: (event) => onTurn({ ...event, historyLength }),
  });
  // A node turn's thread starts with the chain's earlier messages (a re-ask, a resume): its own
  // messages are those after them.
  let historyLength = 0;
  const runAgent = (request) => {
    historyLength = request.messages.length - 1;
    return turnRunner(request);
  };
  return defineChain({
    id: 'relay',
    start: 'plan',
    resumeKey,
    resumeLedger,
    maxSteps: 12,
    runAgent,
    nodes: {
      plan: {
        system:
          'You are Relay, the team assistant. Find out what the user wants; look things up with the read tools. ' +
          'Never write yourself: when the user wants something written, posted, created or deleted, reply success ' +
          'with data.write = { "tool": <tool name>, "args": <arguments> } and say what you would do.',
        input: '{{input}}',
        maxToolSteps: 4,
      },
      confirm: {
        input: '{{plan.data.write}}',
        run: async (_input, context) => {
          const write = context.outputs.plan?.data?.write;
          if (context.answer === undefined)
            return {
              thought: '',
              status: 'clarification_needed',
              data: { write },
              message: `Shall I run ${describeWrite(write)}? Answer "yes" to go ahead.`,
            };
          return confirmed(context.answer)
            ? { thought: '', status: 'success', data: { write }, message: 'Confirmed by the user.' }
            : {
                thought: '',
                status: 'completed',
                data: {},
                message: 'Nothing was written: you did not confirm.',
              };
        },
      },
      act: {
        system:
          'You make the one write the user confirmed, with the tools, once. Then reply with what was done.',
        input: 'The user confirmed this write. Make it once: {{plan.data.write}}',
        maxToolSteps: 3,
      },
      summarise: {
        system: 'You write the answer for the user from what the planner found.',
        maxToolSteps: 1,
      },
      report: {
        run: async (input) => ({
          thought: '',
          status: 'completed',
          data: {},
          message:
            input?.status === 'failure'
              ? `That did not work: ${input.message}`
              : String(input?.message ?? ''),
        }),
      },
    },
    edges: [
      { from: 'plan', to: 'confirm', status: 'failure', when: 'data.guardrail != null' },
      // Taken only if a write got past the guardrail: the guardrail is what keeps it from act.
      { from: 'plan', to: 'act', status: 'success', when: 'data.write != null' },
      { from: 'plan', to: 'summarise', status: ['success', 'completed'] },
      { from: 'plan', to: 'report', status: 'failure' },
      { from: 'confirm', to: 'act', status: 'success' },
      { from: 'act', to: 'report' },
      { from: 'summarise', to: 'report' },
    ],
    guardrails: [
      interventionGuardrail({
        name: 'confirm-writes',
        check: (reply, context) =>
          context.nodeId === 'plan' && reply.status === 'success' && reply.data?.write != null
            ? 'This would write; it waits for your confirmation.'
            : undefined,
      }),
      redactionGuardrail({ secrets, patterns: [/\bACCT-\d{6,}\b/], statuses: sacpStatuses }),
    ],
  });
}

/** The reply the user sees: the paused run's question, or the message the run ended with. */
function replyOf(result) {
  if (result.state === 'paused') return result.question;
  return result.reply.message;
}

/** The questions a paused run leaves the user to answer. */
function questionsOf(result) {
  if (result.state !== 'paused') return [];
  const asked = result.reply.data?.questions;
  return Array.isArray(asked) && asked.length > 0 ? asked.map(String) : [result.question];
}

/** The `sacp-chain` runner. */
export async function sacpChainRunner(options) {
  const threadId = typeof options.thread === 'string' ? options.thread : options.thread.id;
  const stored =
    typeof options.thread === 'string'
      ? ((await options.threadStore?.load(threadId))?.messages ?? [])
      : options.thread.messages;
  const turns = [];
  const chain = relayChain({ options, onTurn: (event) => turns.push(event) });
  const paused = pausedOf(options.threadStore ?? withoutStore);
  const token = paused.get(threadId);
  // Consumed before the resume runs: a token answers one pause, once.
  paused.delete(threadId);
  const runOptions = options.signal ? { signal: options.signal } : {};
  const result = token
    ? await chain.resume(token, options.message, runOptions)
    : await chain.run(options.message, runOptions);
  if (result.state === 'paused') paused.set(threadId, result.resumeToken);

  // The node turns in order: their steps one after the other, each call in its own step.
  const steps = [];
  const calls = [];
  const nodeMessages = [];
  for (const { result: turn, historyLength } of turns) {
    const offset = steps.length;
    for (const step of turn.trace.steps) steps.push({ ...step, index: steps.length });
    for (const call of turn.trace.calls) calls.push({ ...call, step: call.step + offset });
    // The node turn's stored messages after its user message (the chain's input, not the user's words).
    nodeMessages.push(...turn.thread.messages.slice(historyLength + 1));
  }
  const first = turns[0]?.result.trace;
  const reply = replyOf(result);
  const questions = questionsOf(result);
  const trace = runnerTrace({
    options,
    threadId,
    first,
    steps,
    calls,
    retries: turns.flatMap(({ result: turn }) => turn.trace.retries ?? []),
    questions,
    askedUser: result.state === 'paused',
    extra: {
      // The chain's own record: which node ran, what it answered after the guardrails, the edge taken.
      chain: {
        state: result.state,
        resumed: Boolean(token),
        nodes: result.trace.map(({ node, reply: nodeReply, guardrails, edge, repairs, reasks }) => ({
          node,
          status: nodeReply.status,
          guardrails,
          edge: edge?.to ?? null,
          repairs,
          reasks,
        })),
      },
    },
  });

  const turnMessages = [
    { role: 'user', content: options.message },
    ...nodeMessages,
    { role: 'assistant', content: reply },
  ];
  await options.threadStore?.append(threadId, turnMessages);
  return { reply, thread: { id: threadId, messages: [...stored, ...turnMessages] }, trace };
}
