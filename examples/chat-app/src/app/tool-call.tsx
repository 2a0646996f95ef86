import { type DynamicToolUIPart, getToolName, type ToolUIPart } from 'ai';

/** Answers an approval request: `addToolApprovalResponse` of `useChat`. */
export type RespondToApproval = (response: { id: string; approved: boolean; reason?: string }) => void;

/** One tool call of the agent: its arguments, where it stands, and its envelope once the gate answered. */
export function ToolCall({
  part,
  respond,
}: {
  part: ToolUIPart | DynamicToolUIPart;
  respond: RespondToApproval;
}) {
  const name = getToolName(part);
  return (
    <article className="tool" data-tool={name} data-state={part.state} data-tool-call-id={part.toolCallId}>
      <h3>{name}</h3>
      {part.input !== undefined ? (
        <pre className="tool-input">{JSON.stringify(part.input, null, 2)}</pre>
      ) : null}
      <ToolState part={part} respond={respond} />
    </article>
  );
}

function ToolState({ part, respond }: { part: ToolUIPart | DynamicToolUIPart; respond: RespondToApproval }) {
  switch (part.state) {
    case 'input-streaming':
    case 'input-available':
      return <p className="tool-state">Running…</p>;
    case 'approval-requested': {
      const id = part.approval.id;
      // The gate holds the call as a proposal (this id); only a person's decision runs or drops it.
      return (
        <fieldset className="approval">
          <legend className="tool-state">This call changes data for good. Run it?</legend>
          <button type="button" className="approve" onClick={() => respond({ id, approved: true })}>
            Approve
          </button>
          <button
            type="button"
            className="reject"
            onClick={() => respond({ id, approved: false, reason: 'Rejected in the chat' })}
          >
            Reject
          </button>
        </fieldset>
      );
    }
    case 'approval-responded':
      return <p className="tool-state">{part.approval.approved ? 'Approved: running…' : 'Rejected.'}</p>;
    case 'output-available':
      return <Envelope output={part.output} />;
    case 'output-error':
      return <p className="tool-state tool-error">{part.errorText}</p>;
    case 'output-denied':
      return <p className="tool-state">Rejected: it did not run.</p>;
  }
}

function Envelope({ output }: { output: unknown }) {
  const envelope = (output ?? {}) as { ok?: boolean; user_message?: string };
  return (
    <>
      <p className="tool-state">
        {envelope.ok === false ? `Not done: ${envelope.user_message ?? 'the call failed.'}` : 'Done.'}
      </p>
      <pre className="tool-output">{JSON.stringify(output, null, 2)}</pre>
    </>
  );
}
