// The turn runners of `runners:` scenarios: the same user turn as runTurn runs it, through another
// loop. `stream-turn` is runTurn's streaming sibling; the framework runners (ai-sdk, openai-agents,
// langchain) run the framework's own loop with its Patchbay package (see framework-runner.mjs).
import { isDeepStrictEqual } from 'node:util';
import { streamTurn } from '@patchbay/turn';

/**
 * What a chat client was shown that disagrees with the turn's result, one line each (none: they
 * agree). The stream is what a `useChat` UI renders, so it is graded against what happened:
 * - it opens with `start` and closes with `finish` (or `abort` for a cancelled turn);
 * - every text delta sits inside its block's `text-start` … `text-end`, and the text shown ends with
 *   the reply;
 * - the first status it shows is the status the model saw;
 * - every tool call the model made is shown with its input, and then with its output, a denial, or
 *   (for a call that waits for a person, and only for one) an approval request whose id is the gate's
 *   proposal id.
 */
export function streamDisagreements(chunks, result) {
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

  const status = chunks.find((chunk) => chunk.type === 'data-connector-status');
  if (status && !isDeepStrictEqual(status.data.connectorStatus, result.trace.connectorStatus))
    problems.push('the first status shown is not the status the model saw');

  const byCall = (type, toolCallId) =>
    chunks.filter((chunk) => chunk.type === type && chunk.toolCallId === toolCallId);
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
    }
  }
  return problems;
}

/**
 * streamTurn, read to its end as a chat client would (every chunk of the UI message stream), then
 * its result; a stream that disagrees with the result fails the turn.
 */
export async function streamTurnRunner(options) {
  const turn = streamTurn(options);
  const reader = turn.toUIMessageStream().getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const result = await turn.result;
  const problems = streamDisagreements(chunks, result);
  if (problems.length > 0)
    throw new Error(`the streamed turn disagrees with its result: ${problems.join('; ')}`);
  return result;
}
