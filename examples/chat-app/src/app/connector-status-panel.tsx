import type { ConnectorStatusData, ConnectorStatusEntry } from './chat-message.ts';

const labels: Record<ConnectorStatusEntry['status'], string> = {
  connected: 'Connected',
  not_configured: 'Could be set up',
  invalid_credentials: 'Needs new credentials',
  rate_limited: 'Rate limited',
  unavailable: 'Unavailable',
  disabled_by_admin: 'Disabled by an administrator',
};

/** What the agent knew about each connector at the latest capture of this chat. */
export function ConnectorStatusPanel({ status }: { status: ConnectorStatusData | undefined }) {
  return (
    <section className="status" aria-labelledby="status-heading">
      <h2 id="status-heading">Connectors</h2>
      {status ? (
        <>
          <p className="captured">
            Checked at <time dateTime={status.capturedAt}>{formatTime(status.capturedAt)}</time>
          </p>
          <ul>
            {Object.entries(status.connectorStatus).map(([id, entry]) => (
              <ConnectorEntry key={id} id={id} entry={entry} />
            ))}
          </ul>
        </>
      ) : (
        <p className="captured">The status shows with the first reply: the agent checks it every step.</p>
      )}
    </section>
  );
}

function ConnectorEntry({ id, entry }: { id: string; entry: ConnectorStatusEntry }) {
  return (
    <li data-connector={id} data-status={entry.status}>
      <strong>{id}</strong> <span className={`badge badge-${entry.status}`}>{labels[entry.status]}</span>
      {entry.tools?.length ? <p className="detail">Tools: {entry.tools.join(', ')}</p> : null}
      {entry.would_enable?.length ? (
        <p className="detail">Would enable: {entry.would_enable.join('; ')}</p>
      ) : null}
      {entry.error ? <p className="detail">{entry.error}</p> : null}
      {entry.reason ? <p className="detail">{entry.reason}</p> : null}
      {entry.setup_url ? (
        <a className="detail" href={entry.setup_url} target="_blank" rel="noreferrer">
          Set up {id}
        </a>
      ) : null}
    </li>
  );
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString();
}
