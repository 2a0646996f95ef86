import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { approvedByPerson, declinedByPerson } from './person-approval.js';

function history(request: { isAutomatic?: boolean }, response: { approved: boolean }): ModelMessage[] {
  return [
    { role: 'user', content: 'Delete WEB-1.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } },
        { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1', ...request },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', ...response }] },
  ];
}

describe('approvedByPerson', () => {
  it('finds the approval a person gave to this exact call', () => {
    expect(approvedByPerson(history({}, { approved: true }), 'c1')).toBe(true);
  });

  it('finds none for a denial, another call, an approval the SDK gave by itself, or no approval step', () => {
    expect(approvedByPerson(history({}, { approved: false }), 'c1')).toBe(false);
    expect(approvedByPerson(history({}, { approved: true }), 'c2')).toBe(false);
    expect(approvedByPerson(history({ isAutomatic: true }, { approved: true }), 'c1')).toBe(false);
    expect(approvedByPerson([{ role: 'user', content: 'Delete WEB-1.' }], 'c1')).toBe(false);
  });
});

describe('declinedByPerson', () => {
  it('names the calls a person declined in the last tool message that have no result yet', () => {
    expect(declinedByPerson(history({}, { approved: false }))).toEqual([
      { toolCallId: 'c1', toolName: 'tracker_delete_issue', input: { key: 'WEB-1' } },
    ]);
  });

  it('names none for an approval, a declined call already answered, or an SDK decision', () => {
    expect(declinedByPerson(history({}, { approved: true }))).toEqual([]);
    expect(declinedByPerson(history({ isAutomatic: true }, { approved: false }))).toEqual([]);
    const answered = history({}, { approved: false });
    answered.push({
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: 'a1', approved: false },
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'tracker_delete_issue',
          output: { type: 'execution-denied' },
        },
      ],
    });
    expect(declinedByPerson(answered)).toEqual([]);
  });
});
