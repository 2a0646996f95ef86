// The turn runners of `runners:` scenarios: the same user turn as runTurn runs it, through another
// loop. `stream-turn` is runTurn's streaming sibling; the framework runners (ai-sdk, openai-agents,
// langchain) run the framework's own loop with its Patchbay package (see framework-runner.mjs).
import { isDeepStrictEqual } from 'node:util';
import { runTurn, streamTurn } from '@patchbay/turn';

/**
 * What a chat client was shown that disagrees with the turn's result, one line each (none: they
 * agree). The stream is what a `useChat` UI renders, so it is graded against what happened:
 * - it opens with `start` and closes with `finish` (or `abort` for a cancelled turn);
 * - every text delta sits inside its block's `text-start` … `text-end`, and the text shown ends with
 *   the reply;
 * - the first status it shows is the status the model saw;
 * - every tool call the model made is shown with its input, and then with its output (what the model
 *   reads of its result, as the thread stores it), a denial, or (for a call that waits for a person,
 *   and only for one) an approval request whose id is the gate's proposal id;
 * - every reasoning delta sits inside its block's `reasoning-start` … `reasoning-end`, and the
 *   reasoning shown is the reasoning the model streamed (`streamed.reasoning`, when known);
 * - every step shown is a model call: no more `start-step` than the model was called (`streamed.calls`,
 *   when known), so a turn stopped between steps shows no step it never started.
 */
export function streamDisagreements(chunks, result, streamed = {}) {
  const problems = [];
  const last = chunks.at(-1)?.type;
  if (chunks[0]?.type !== 'start') problems.push(`the stream starts with ${chunks[0]?.type}, not start`);
  const ended = result.trace.outcome === 'aborted' ? 'abort' : 'finish';
  if (last !== ended) problems.push(`the stream ends with ${last}, not ${ended}`);

  const open = new Set();
  let text = '';
  for (const chunk of chunks) {
    if (chunk.type === 'text-start') open.add(chunk.id);
    else if (chunk.type === 'text-end') {
      if (!open.delete(chunk.id)) problems.push(`text block ${chunk.id} ends without a start`);
    } else if (chunk.type === 'text-delta') {
      if (!open.has(chunk.id)) problems.push(`a text delta of ${chunk.id} outside its block`);
      text += chunk.delta;
    }
  }
  if (open.size > 0) problems.push(`text blocks never ended: ${[...open].join(', ')}`);
  if (!text.endsWith(result.reply)) problems.push('the text shown does not end with the reply');

  const thinking = new Set();
  let reasoning = '';
  for (const chunk of chunks) {
    if (chunk.type === 'reasoning-start') thinking.add(chunk.id);
    else if (chunk.type === 'reasoning-end') {
      if (!thinking.delete(chunk.id)) problems.push(`reasoning block ${chunk.id} ends without a start`);
    } else if (chunk.type === 'reasoning-delta') {
      if (!thinking.has(chunk.id)) problems.push(`a reasoning delta of ${chunk.id} outside its block`);
      reasoning += chunk.delta;
    }
  }
  if (thinking.size > 0) problems.push(`reasoning blocks never ended: ${[...thinking].join(', ')}`);
  if (streamed.reasoning !== undefined && reasoning !== streamed.reasoning)
    problems.push(
      `the reasoning shown (${JSON.stringify(reasoning)}) is not what the model streamed (${JSON.stringify(streamed.reasoning)})`,
    );

  const status = chunks.find((chunk) => chunk.type === 'data-connector-status');
  if (status && !isDeepStrictEqual(status.data.connectorStatus, result.trace.connectorStatus))
    problems.push('the first status shown is not the status the model saw');

  const shownSteps = chunks.filter((chunk) => chunk.type === 'start-step').length;
  if (streamed.calls !== undefined && shownSteps > streamed.calls)
    problems.push(`the stream shows ${shownSteps} steps, but the model was called ${streamed.calls} times`);

  const byCall = (type, toolCallId) =>
    chunks.filter((chunk) => chunk.type === type && chunk.toolCallId === toolCallId);
  // What the model reads of each result (the envelope as JSON, or its start as text), as stored.
  const storedOutputs = new Map();
  for (const message of result.thread?.messages ?? [])
    if (message.role === 'tool' && Array.isArray(message.content))
      for (const part of message.content)
        if (part.type === 'tool-result') storedOutputs.set(part.toolCallId, part.output);
  for (const call of result.trace.calls) {
    if (byCall('tool-input-available', call.toolCallId).length !== 1)
      problems.push(`call ${call.toolName} (${call.toolCallId}) is not shown once with its input`);
    const waits =
      !call.envelope.ok && call.envelope.error_type === 'approval_required' && call.envelope.proposal_id;
    if (waits) {
      const requests = byCall('tool-approval-request', call.toolCallId);
      if (requests.length !== 1 || requests[0].approvalId !== call.envelope.proposal_id)
        problems.push(
          `call ${call.toolName} waits for approval, but no request with its proposal id is shown`,
        );
    } else if (byCall('tool-approval-request', call.toolCallId).length > 0) {
      problems.push(
        `call ${call.toolName} (${call.toolCallId}) does not wait for approval, but an approval request is shown`,
      );
    } else if (
      byCall('tool-output-available', call.toolCallId).length +
        byCall('tool-output-denied', call.toolCallId).length !==
      1
    ) {
      problems.push(`call ${call.toolName} (${call.toolCallId}) is not shown once with its outcome`);
    } else {
      const [shown] = byCall('tool-output-available', call.toolCallId);
      const stored = storedOutputs.get(call.toolCallId);
      if (shown && stored && !isDeepStrictEqual(shown.output, stored.value))
        problems.push(
          `call ${call.toolName} (${call.toolCallId}) is shown with an output that is not the result the model read`,
        );
    }
  }
  return problems;
}

/**
 * streamTurn, read to its end as a chat client would (every chunk of the UI message stream), then
 * its result; a stream that disagrees with the result fails the turn.
 */
export async function streamTurnRunner(options) {
  const streamed = { reasoning: '', calls: 0 };
  const turn = streamTurn({ ...options, model: recordingModel(options.model, streamed) });
  const reader = turn.toUIMessageStream().getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const result = await turn.result;
  // A stopped turn may have cut a model's stream short: what it had streamed is not all shown.
  const problems = streamDisagreements(
    chunks,
    result,
    result.trace.outcome === 'aborted' ? { calls: streamed.calls } : streamed,
  );
  if (problems.length > 0)
    throw new Error(`the streamed turn disagrees with its result: ${problems.join('; ')}`);
  return result;
}

/**
 * The model, with what it streamed recorded: its calls in `streamed.calls`, its reasoning in
 * `streamed.reasoning` (every `reasoning-delta` of every `doStream`, in order) as the turn reads the
 * stream: what a chat client must be shown.
 */
function recordingModel(model, streamed) {
  const recording = Object.create(model);
  recording.doStream = async (call) => {
    streamed.calls += 1;
    const answer = await model.doStream(call);
    const [forTurn, forRecord] = answer.stream.tee();
    (async () => {
      const reader = forRecord.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.type === 'reasoning-delta') streamed.reasoning += value.delta;
      }
    })().catch(() => {});
    return { ...answer, stream: forTurn };
  };
  return recording;
}

/**
 * runTurn called without a `signal`, as an application that never cancels calls it (the option is
 * optional): the turn must not assume one. The harness's signal (its guard and the scripted cancels)
 * is left out, so only scenarios that cancel nothing name this runner.
 */
export function unsignalledTurnRunner({ signal: _signal, ...options }) {
  return runTurn(options);
}
