import { useEffect, useMemo, useState } from 'preact/hooks';
import { type AuditRecord, get } from '../api.js';
import { formatTime, readable } from '../format.js';
import { useLive } from '../live.js';

/** Fields shown in their own columns; the rest go in "Details". */
const columns = new Set(['event', 'subject', 'connector', 'tool', 'at']);

/** Activity: the audit log, newest first, filterable, growing live as entries arrive. */
export function ActivityPage() {
  const live = useLive();
  const [loaded, setLoaded] = useState<AuditRecord[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [event, setEvent] = useState('');
  const [text, setText] = useState('');

  // Read on opening, and again whenever the live stream reopens (entries written meanwhile were not heard).
  useEffect(() => {
    get<AuditRecord[]>('/api/audit')
      .then(setLoaded)
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : 'Failed.'));
  }, [live.opened]);

  // The first load plus whatever arrived live after it, without duplicates, newest first.
  const records = useMemo(() => {
    const bySeq = new Map<number, AuditRecord>();
    for (const record of [...(loaded ?? []), ...live.audit]) bySeq.set(record.seq, record);
    return [...bySeq.values()].sort((a, b) => b.seq - a.seq);
  }, [loaded, live.audit]);

  const events = useMemo(
    () => [...new Set(records.map((record) => String(record.entry.event ?? 'unknown')))].sort(),
    [records],
  );
  const needle = text.trim().toLowerCase();
  const shown = records.filter(
    (record) =>
      (!event || record.entry.event === event) &&
      (!needle || JSON.stringify(record.entry).toLowerCase().includes(needle)),
  );

  return (
    <section>
      <div class="filters">
        <label>
          Event{' '}
          <select value={event} onChange={(change) => setEvent((change.target as HTMLSelectElement).value)}>
            <option value="">any</option>
            {events.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Contains{' '}
          <input
            type="search"
            value={text}
            placeholder="user, connector, tool…"
            onInput={(change) => setText((change.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      <p class="summary" aria-live="polite">
        {loaded === undefined ? 'Loading…' : `${shown.length} of ${records.length} entries.`}
      </p>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      <div class="table-wrap">
        <table class="audit">
          <caption class="visually-hidden">Audit log, newest first</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">User</th>
              <th scope="col">Connector / tool</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((record) => {
              const details = Object.entries(record.entry).filter(([key]) => !columns.has(key));
              return (
                <tr key={record.seq} data-event={String(record.entry.event ?? '')}>
                  <td data-label="#">{record.seq}</td>
                  <td data-label="Time">
                    <time dateTime={record.at}>{formatTime(record.at)}</time>
                  </td>
                  <td data-label="Event">
                    <code>{String(record.entry.event ?? '—')}</code>
                  </td>
                  <td data-label="User">{readable(record.entry.subject ?? '—')}</td>
                  <td data-label="Connector / tool">
                    {[record.entry.connector, record.entry.tool].filter(Boolean).map(readable).join(' / ') ||
                      '—'}
                  </td>
                  <td data-label="Details" class="details">
                    {details.length === 0
                      ? '—'
                      : details.map(([key, value]) => (
                          <span key={key} class="detail">
                            <b>{key}</b> {readable(value)}
                          </span>
                        ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
