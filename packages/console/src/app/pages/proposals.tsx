import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, type ProposalView, post, query } from '../api.js';
import { formatTime, readable, relativeTime } from '../format.js';
import { useLive, useNow } from '../live.js';

/** The arguments as a definition list: one row per field, values readable, nested ones as JSON. */
function Arguments({ args }: { args: unknown }) {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return <pre class="json">{JSON.stringify(args, null, 2)}</pre>;
  }
  const entries = Object.entries(args as Record<string, unknown>);
  if (entries.length === 0) return <p class="muted">No arguments.</p>;
  return (
    <dl class="arguments">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>
            <code>{readable(value)}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ProposalCard({ proposal, onDecided }: { proposal: ProposalView; onDecided: () => void }) {
  const now = useNow();
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();
  const [envelope, setEnvelope] = useState<Record<string, unknown> | null>(proposal.envelope);
  const pending = proposal.state === 'pending';
  const headingId = `proposal-${proposal.id}`;

  useEffect(() => setEnvelope(proposal.envelope ?? envelope), [proposal.envelope]);

  async function approve() {
    setBusy(true);
    setMessage(undefined);
    try {
      const answer = await post<{ envelope: Record<string, unknown>; proposal: ProposalView | null }>(
        `/api/proposals/${encodeURIComponent(proposal.id)}/approve`,
      );
      setEnvelope(answer.envelope);
      const ok = answer.envelope.ok === true;
      const stillPending = answer.proposal?.state === 'pending';
      setMessage({
        kind: ok ? 'ok' : 'error',
        text: ok
          ? 'Approved: the call ran once.'
          : stillPending
            ? `The call could not start (${String(answer.envelope.error_type)}); the proposal is still pending.`
            : `Approved, but the call failed (${String(answer.envelope.error_type)}).`,
      });
      onDecided();
    } catch (error) {
      setMessage({ kind: 'error', text: error instanceof ApiError ? error.message : 'The approval failed.' });
      onDecided();
    } finally {
      setBusy(false);
    }
  }

  async function reject(event: Event) {
    event.preventDefault();
    if (!reason.trim()) {
      setMessage({ kind: 'error', text: 'Give a reason for the rejection.' });
      return;
    }
    setBusy(true);
    setMessage(undefined);
    try {
      await post(`/api/proposals/${encodeURIComponent(proposal.id)}/reject`, { reason });
      setMessage({ kind: 'ok', text: 'Rejected.' });
      onDecided();
    } catch (error) {
      setMessage({
        kind: 'error',
        text: error instanceof ApiError ? error.message : 'The rejection failed.',
      });
      onDecided();
    } finally {
      setBusy(false);
    }
  }

  return (
    <article
      class={`card proposal state-${proposal.state}`}
      aria-labelledby={headingId}
      data-proposal={proposal.id}
    >
      <header class="card-head">
        <h2 id={headingId}>
          <code>{proposal.tool}</code>
        </h2>
        <span class={`badge badge-${proposal.state}`}>{proposal.state}</span>
        {proposal.effect === 'destructive' && <span class="badge badge-destructive">destructive</span>}
      </header>
      {proposal.tool_description && <p class="description">{proposal.tool_description}</p>}
      <dl class="facts">
        <div>
          <dt>User</dt>
          <dd>{proposal.subject}</dd>
        </div>
        <div>
          <dt>Served by</dt>
          <dd>{proposal.owner ?? '—'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <time dateTime={proposal.created_at}>{formatTime(proposal.created_at)}</time>
          </dd>
        </div>
        {pending && (
          <div>
            <dt>Expires</dt>
            <dd>
              <time dateTime={proposal.expires_at}>{formatTime(proposal.expires_at)}</time> (
              {relativeTime(proposal.expires_at, now)})
            </dd>
          </div>
        )}
        <div>
          <dt>Id</dt>
          <dd>
            <code>{proposal.id}</code>
          </dd>
        </div>
      </dl>
      <h3>Arguments</h3>
      <Arguments args={proposal.args} />
      <details>
        <summary>Full JSON of the arguments</summary>
        <pre class="json">{JSON.stringify(proposal.args, null, 2)}</pre>
      </details>
      {!pending && (
        <dl class="facts decision">
          <div>
            <dt>Decided by</dt>
            <dd>{proposal.decided_by ?? '—'}</dd>
          </div>
          <div>
            <dt>Decided</dt>
            <dd>{formatTime(proposal.decided_at)}</dd>
          </div>
          {proposal.reason && (
            <div>
              <dt>Reason</dt>
              <dd>{proposal.reason}</dd>
            </div>
          )}
        </dl>
      )}
      {envelope && (
        <details open={!pending}>
          <summary>Resulting envelope ({envelope.ok === true ? 'ok' : String(envelope.error_type)})</summary>
          <pre class="json envelope">{JSON.stringify(envelope, null, 2)}</pre>
        </details>
      )}
      {pending && (
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={approve}>
            Approve and run
          </button>
          <form class="reject" onSubmit={reject}>
            <label for={`reason-${proposal.id}`}>Reason for rejecting</label>
            <div class="inline">
              <input
                id={`reason-${proposal.id}`}
                value={reason}
                onInput={(event) => setReason((event.target as HTMLInputElement).value)}
                maxLength={500}
              />
              <button type="submit" class="danger" disabled={busy}>
                Reject
              </button>
            </div>
          </form>
        </div>
      )}
      <p class={`message ${message?.kind ?? ''}`} role="status" aria-live="polite">
        {message?.text ?? ''}
      </p>
    </article>
  );
}

/** Proposals: pending first, with what will run and for whom; approve or reject with a reason. */
export function ProposalsPage({ subject }: { subject: string }) {
  const live = useLive();
  const [allUsers, setAllUsers] = useState(true);
  const [state, setState] = useState('');
  const [proposals, setProposals] = useState<ProposalView[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    get<ProposalView[]>(`/api/proposals${query({ subject: allUsers ? undefined : subject, state })}`)
      .then((list) => {
        if (!current) return;
        setProposals(list);
        setError(undefined);
      })
      .catch(
        (failure: unknown) => current && setError(failure instanceof Error ? failure.message : 'Failed.'),
      );
    return () => {
      current = false;
    };
  }, [allUsers, subject, state, live.proposals, reloads]);

  const pendingCount = proposals?.filter((proposal) => proposal.state === 'pending').length ?? 0;
  return (
    <section aria-describedby="proposals-summary">
      <div class="filters">
        <label class="check">
          <input
            type="checkbox"
            checked={allUsers}
            onChange={(event) => setAllUsers((event.target as HTMLInputElement).checked)}
          />
          All users
        </label>
        <label>
          State{' '}
          <select value={state} onChange={(event) => setState((event.target as HTMLSelectElement).value)}>
            <option value="">any</option>
            <option value="pending">pending</option>
            <option value="approved">approved</option>
            <option value="executed">executed</option>
            <option value="rejected">rejected</option>
            <option value="expired">expired</option>
          </select>
        </label>
      </div>
      <p id="proposals-summary" class="summary" aria-live="polite">
        {proposals === undefined
          ? 'Loading…'
          : `${pendingCount} pending, ${proposals.length - pendingCount} decided${allUsers ? '' : ` for ${subject}`}.`}
      </p>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      {proposals?.map((proposal) => (
        <ProposalCard
          key={proposal.id}
          proposal={proposal}
          onDecided={() => setReloads((count) => count + 1)}
        />
      ))}
    </section>
  );
}
