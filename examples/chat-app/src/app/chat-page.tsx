import { useChat } from '@ai-sdk/react';
import { isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { type FormEvent, useState } from 'react';
import type { ChatMessage, ConnectorStatusData } from './chat-message.ts';
import { ConnectorStatusPanel } from './connector-status-panel.tsx';
import { type RespondToApproval, ToolCall } from './tool-call.tsx';

/** The chat: messages streamed from POST /api/chat, the connector status beside them, approvals inline. */
export function ChatPage() {
  const { messages, sendMessage, status, error, addToolApprovalResponse } = useChat<ChatMessage>({
    // Once every approval of the last reply is answered, the decisions go back to the server, which
    // lets the gate run (or drop) the held calls and continues the turn.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [draft, setDraft] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = draft.trim();
    if (!text || busy) return;
    setDraft('');
    void sendMessage({ text });
  }

  return (
    <div className="layout">
      <header>
        <h1>Patchbay chat</h1>
      </header>
      <main>
        <section className="messages" role="log" aria-label="Conversation" aria-live="polite">
          {messages.map((message) => (
            <Message key={message.id} message={message} respond={addToolApprovalResponse} />
          ))}
        </section>
        {error ? (
          <p className="error" role="alert">
            {error.message}
          </p>
        ) : null}
        <form onSubmit={submit}>
          <label htmlFor="message">Message</label>
          <input
            id="message"
            value={draft}
            autoComplete="off"
            placeholder="Try: list issues, or delete issue WEB-1"
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" disabled={busy}>
            Send
          </button>
        </form>
        <p className="busy" role="status">
          {busy ? 'The agent is working…' : ''}
        </p>
      </main>
      <aside>
        <ConnectorStatusPanel status={latestStatus(messages)} />
      </aside>
    </div>
  );
}

function Message({ message, respond }: { message: ChatMessage; respond: RespondToApproval }) {
  return (
    <div className={`message message-${message.role}`} data-role={message.role}>
      <span className="speaker">{message.role === 'user' ? 'You' : 'Agent'}</span>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === 'text') {
          return (
            <p key={key} className="text">
              {part.text}
            </p>
          );
        }
        if (isToolUIPart(part)) return <ToolCall key={key} part={part} respond={respond} />;
        return null;
      })}
    </div>
  );
}

/** The newest status the turn streamed in this chat: the panel shows what the agent knew last. */
function latestStatus(messages: ChatMessage[]): ConnectorStatusData | undefined {
  for (const message of messages.toReversed()) {
    const part = message.parts.findLast((candidate) => candidate.type === 'data-connector-status');
    if (part?.type === 'data-connector-status') return part.data;
  }
  return undefined;
}
