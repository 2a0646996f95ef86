// The stream-turn runner grades the UI message stream a chat client renders against the turn's result:
// each disagreement a broken stream could show is named, and an agreeing stream passes.
import { describe, expect, it } from 'vitest';
import { streamDisagreements } from '../runners/turn-runners.mjs';

const status = { github: { status: 'connected', scopes: ['repo'], tools: ['github_close_issue'] } };
const waiting = {
  toolCallId: 'call-1',
  toolName: 'github_close_issue',
  envelope: { ok: false, error_type: 'approval_required', proposal_id: 'prop_1', user_message: 'Approve?' },
};
const result = {
  reply: 'Waiting for your approval.',
  trace: { outcome: 'replied', connectorStatus: status, calls: [waiting] },
};
const agreeing = [
  { type: 'start' },
  { type: 'data-connector-status', data: { connectorStatus: status } },
  { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'github_close_issue', input: {} },
  { type: 'tool-approval-request', approvalId: 'prop_1', toolCallId: 'call-1' },
  { type: 'text-start', id: '1:t' },
  { type: 'text-delta', id: '1:t', delta: 'Waiting for ' },
  { type: 'text-delta', id: '1:t', delta: 'your approval.' },
  { type: 'text-end', id: '1:t' },
  { type: 'finish' },
];
const without = (type: string) => agreeing.filter((chunk) => chunk.type !== type);

describe('the stream-turn runner grades the stream against the result', () => {
  it('passes a stream that shows what happened', () => {
    expect(streamDisagreements(agreeing, result)).toEqual([]);
  });

  it('names each way a stream can disagree', () => {
    expect(streamDisagreements(without('tool-approval-request'), result)).toEqual([
      'call github_close_issue waits for approval, but no request with its proposal id is shown',
    ]);
    expect(streamDisagreements(without('tool-input-available'), result)).toEqual([
      'call github_close_issue (call-1) is not shown once with its input',
    ]);
    expect(streamDisagreements(without('text-start'), result)).toContain(
      'a text delta of 1:t outside its block',
    );
    expect(streamDisagreements(without('finish'), result)).toEqual([
      'the stream ends with text-end, not finish',
    ]);
    expect(
      streamDisagreements(
        agreeing.map((chunk) => (chunk.type === 'text-delta' ? { ...chunk, delta: '' } : chunk)),
        result,
      ),
    ).toEqual(['the text shown does not end with the reply']);
    expect(
      streamDisagreements(
        agreeing.map((chunk) =>
          chunk.type === 'data-connector-status' ? { ...chunk, data: { connectorStatus: {} } } : chunk,
        ),
        result,
      ),
    ).toEqual(['the first status shown is not the status the model saw']);
  });

  it('wants an outcome for a call that does not wait for a person', () => {
    const answered = { ...waiting, envelope: { ok: true, data: {} } };
    const done = { ...result, trace: { ...result.trace, calls: [answered] } };
    expect(streamDisagreements(without('tool-approval-request'), done)).toEqual([
      'call github_close_issue (call-1) is not shown once with its outcome',
    ]);
    expect(streamDisagreements(agreeing, done)).toEqual([
      'call github_close_issue (call-1) does not wait for approval, but an approval request is shown',
    ]);
  });
});
