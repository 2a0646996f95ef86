import { useEffect, useState } from 'preact/hooks';
import { get, query, type TurnContextView } from '../api.js';
import { formatTime } from '../format.js';
import { useLive } from '../live.js';

/** Context: the exact per-turn block a user's agent would get now, and its size in tokens. */
export function ContextPage({ subject }: { subject: string }) {
  const live = useLive();
  const [view, setView] = useState<TurnContextView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [verify, setVerify] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setBusy(true);
    get<TurnContextView>(`/api/context${query({ subject, verify: verify ? 'true' : undefined })}`)
      .then((answer) => {
        if (!current) return;
        setView(answer);
        setError(undefined);
      })
      .catch(
        (failure: unknown) => current && setError(failure instanceof Error ? failure.message : 'Failed.'),
      )
      .finally(() => current && setBusy(false));
    return () => {
      current = false;
    };
    // Re-read when a connection or policy changes: the block is a function of them.
  }, [subject, verify, live.connectors, reloads]);

  return (
    <section>
      <div class="filters">
        <label class="check">
          <input
            type="checkbox"
            checked={verify}
            onChange={(event) => setVerify((event.target as HTMLInputElement).checked)}
          />
          Verify stored credentials with each service first
        </label>
        <button type="button" disabled={busy} onClick={() => setReloads((count) => count + 1)}>
          Refresh
        </button>
      </div>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      {view && (
        <>
          <p class="summary" aria-live="polite">
            For <b>{view.subject}</b>, captured {formatTime(view.captured_at)}:{' '}
            <b data-testid="token-count">{view.tokens}</b> tokens ({view.encoding}).
          </p>
          <figure class="context">
            <figcaption class="visually-hidden">Per-turn context for {view.subject}</figcaption>
            <pre class="json context-block">{view.context}</pre>
          </figure>
        </>
      )}
    </section>
  );
}
