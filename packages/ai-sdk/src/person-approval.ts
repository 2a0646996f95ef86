import type { ModelMessage } from 'ai';

/**
 * Whether a person approved this tool call in the SDK's approval step: the history holds an approval
 * request for it that the SDK did not decide by itself, answered by an approving response. The SDK runs
 * `execute` after such an approval with the messages that carried it; a call the SDK approved
 * automatically (an `approved` status) or never asked about finds nothing here, and the gate then
 * answers `approval_required` as usual.
 */
export function approvedByPerson(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const requests = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (
        part.type === 'tool-approval-request' &&
        part.toolCallId === toolCallId &&
        part.isAutomatic !== true
      ) {
        requests.add(part.approvalId);
      }
    }
  }
  if (requests.size === 0) return false;
  return messages.some(
    (message) =>
      message.role === 'tool' &&
      message.content.some(
        (part) => part.type === 'tool-approval-response' && part.approved && requests.has(part.approvalId),
      ),
  );
}

/** A call a person declined in the SDK's approval step, as the history names it. */
export interface DeclinedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  reason?: string;
}

/**
 * The calls a person declined in the history's last tool message that have no result yet: the ones
 * the SDK is about to answer `execution-denied` (it reads only that message, and so does this).
 */
export function declinedByPerson(messages: readonly ModelMessage[]): DeclinedCall[] {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return [];
  const answered = new Set(
    last.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : [])),
  );
  const requests = new Map<string, string>();
  const toolCalls = new Map<string, { toolName: string; input: unknown }>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') toolCalls.set(part.toolCallId, part);
      if (part.type === 'tool-approval-request' && part.isAutomatic !== true) {
        requests.set(part.approvalId, part.toolCallId);
      }
    }
  }
  const declined: DeclinedCall[] = [];
  for (const part of last.content) {
    if (part.type !== 'tool-approval-response' || part.approved) continue;
    const toolCallId = requests.get(part.approvalId);
    const toolCall = toolCallId === undefined ? undefined : toolCalls.get(toolCallId);
    if (toolCallId === undefined || toolCall === undefined || answered.has(toolCallId)) continue;
    declined.push({
      toolCallId,
      toolName: toolCall.toolName,
      input: toolCall.input,
      ...(part.reason !== undefined ? { reason: part.reason } : {}),
    });
  }
  return declined;
}
