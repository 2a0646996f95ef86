import { useEffect, useState } from 'preact/hooks';
import {
  ApiError,
  type ConnectOutcome,
  type ConnectorItem,
  get,
  type McpServerItem,
  post,
  query,
} from '../api.js';
import { duration, formatTime } from '../format.js';
import { useLive, useNow } from '../live.js';

function ConnectForm({
  connector,
  subject,
  onDone,
}: {
  connector: ConnectorItem;
  subject: string;
  onDone: (text: string, kind: 'ok' | 'error') => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const update = (name: string, value: string) => setValues((current) => ({ ...current, [name]: value }));

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const outcome = await post<ConnectOutcome>(
        `/api/connectors/${encodeURIComponent(connector.id)}/connect`,
        {
          subject,
          credentials: values,
        },
      );
      if (outcome.status === 'connected') {
        onDone(
          `Connected${outcome.identity ? ` as ${outcome.identity}` : ''}. Scopes: ${outcome.scopes.join(', ') || 'none'}.`,
          'ok',
        );
      } else {
        onDone(`Not connected: ${outcome.message}`, 'error');
      }
    } catch (error) {
      onDone(error instanceof ApiError ? error.message : 'Connecting failed.', 'error');
    } finally {
      // The typed secret is dropped from the page's memory whatever happened.
      setValues({});
      setBusy(false);
    }
  }

  return (
    <form class="connect" onSubmit={submit} autocomplete="off">
      {/* Whose credential this is, for password managers and assistive tech; never sent. */}
      <input
        type="text"
        name="username"
        autocomplete="username"
        value={`${subject}@${connector.id}`}
        readOnly
        hidden
      />
      {connector.fields.map((field) => {
        const id = `field-${connector.id}-${field.name}`;
        return (
          <div class="field" key={field.name}>
            <label for={id}>
              {field.description}
              {field.optional ? ' (optional)' : ''}
            </label>
            {field.secret ? (
              <input
                id={id}
                name={field.name}
                type="password"
                autocomplete="new-password"
                required={!field.optional}
                value={values[field.name] ?? ''}
                onInput={(event) => update(field.name, (event.target as HTMLInputElement).value)}
              />
            ) : (
              <input
                id={id}
                name={field.name}
                type="text"
                autocomplete="off"
                spellcheck={false}
                required={!field.optional}
                value={values[field.name] ?? ''}
                onInput={(event) => update(field.name, (event.target as HTMLInputElement).value)}
              />
            )}
          </div>
        );
      })}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Verifying…' : 'Verify and connect'}
      </button>
    </form>
  );
}

function ConnectorCard({
  connector,
  subject,
  reload,
}: {
  connector: ConnectorItem;
  subject: string;
  reload: () => void;
}) {
  const now = useNow();
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const headingId = `connector-${connector.id}`;
  const remaining = connector.retry_after ? Date.parse(connector.retry_after) - now : 0;

  async function act<T>(path: string, body: Record<string, unknown>, done: (answer: T) => string) {
    setBusy(true);
    try {
      const answer = await post<T>(`/api/connectors/${encodeURIComponent(connector.id)}/${path}`, {
        subject,
        ...body,
      });
      setMessage({ kind: 'ok', text: done(answer) });
    } catch (error) {
      setMessage({ kind: 'error', text: error instanceof ApiError ? error.message : 'That failed.' });
    } finally {
      setBusy(false);
      reload();
    }
  }

  return (
    <article class="card connector" aria-labelledby={headingId} data-connector={connector.id}>
      <header class="card-head">
        <h2 id={headingId}>{connector.name}</h2>
        <span class={`badge status-${connector.status}`} data-status={connector.status}>
          {connector.status.replaceAll('_', ' ')}
        </span>
      </header>
      <p class="description">{connector.description}</p>
      <dl class="facts">
        <div>
          <dt>Id</dt>
          <dd>
            <code>{connector.id}</code>
          </dd>
        </div>
        {connector.identity && (
          <div>
            <dt>Signed in as</dt>
            <dd>{connector.identity}</dd>
          </div>
        )}
        <div>
          <dt>Scopes</dt>
          <dd>{connector.scopes.length ? connector.scopes.join(', ') : '—'}</dd>
        </div>
        <div>
          <dt>Last verified</dt>
          <dd>{formatTime(connector.verified_at)}</dd>
        </div>
        {connector.error && (
          <div>
            <dt>Error</dt>
            <dd>{connector.error}</dd>
          </div>
        )}
        {connector.retry_after && (
          <div>
            <dt>Rate limited until</dt>
            <dd>
              <time dateTime={connector.retry_after}>{formatTime(connector.retry_after)}</time>{' '}
              <span class="countdown">{remaining > 0 ? `(${duration(remaining)} left)` : '(over)'}</span>
            </dd>
          </div>
        )}
        {connector.setup_url && (
          <div>
            <dt>Get credentials</dt>
            <dd>
              <a href={connector.setup_url} target="_blank" rel="noreferrer noopener">
                {connector.setup_url}
              </a>
            </dd>
          </div>
        )}
      </dl>
      {/* Connecting is for a missing or rejected credential; a rate limit passes by itself. */}
      {(connector.status === 'not_configured' || connector.status === 'invalid_credentials') && (
        <ConnectForm
          connector={connector}
          subject={subject}
          onDone={(text, kind) => {
            setMessage({ kind, text });
            reload();
          }}
        />
      )}
      <div class="actions">
        {connector.status !== 'not_configured' && connector.status !== 'disabled_by_admin' && (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              act<{ removed: boolean }>('disconnect', {}, (answer) =>
                answer.removed ? 'Disconnected.' : 'It was not connected.',
              )
            }
          >
            Disconnect
          </button>
        )}
        <fieldset class="admin">
          <legend>Admin</legend>
          {connector.disabled_for_everyone ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => act('enable', { scope: 'everyone' }, () => 'Enabled for everyone.')}
            >
              Enable for everyone
            </button>
          ) : (
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={() => act('disable', { scope: 'everyone' }, () => 'Disabled for everyone.')}
            >
              Disable for everyone
            </button>
          )}
          {connector.disabled_for_user ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => act('enable', { scope: 'user' }, () => `Enabled for ${subject}.`)}
            >
              Enable for {subject}
            </button>
          ) : (
            <button
              type="button"
              disabled={busy}
              onClick={() => act('disable', { scope: 'user' }, () => `Disabled for ${subject}.`)}
            >
              Disable for {subject}
            </button>
          )}
        </fieldset>
      </div>
      <p class={`message ${message?.kind ?? ''}`} role="status" aria-live="polite">
        {message?.text ?? ''}
      </p>
    </article>
  );
}

function McpServerCard({ server }: { server: McpServerItem }) {
  const headingId = `mcp-server-${server.name}`;
  return (
    <article class="card connector" aria-labelledby={headingId} data-mcp-server={server.name}>
      <header class="card-head">
        <h3 id={headingId}>{server.name}</h3>
        <span class={`badge status-${server.status}`} data-status={server.status}>
          {server.status.replaceAll('_', ' ')}
          {server.disabled ? ' (disabled)' : ''}
        </span>
      </header>
      <dl class="facts">
        <div>
          <dt>Tools</dt>
          <dd>{server.tools.length ? server.tools.join(', ') : '—'}</dd>
        </div>
        {server.detail && (
          <div>
            <dt>Why</dt>
            <dd>{server.detail}</dd>
          </div>
        )}
        {server.setup_command && (
          <div>
            <dt>Sign in</dt>
            <dd>
              Run <code>{server.setup_command}</code> in a terminal.
            </dd>
          </div>
        )}
      </dl>
    </article>
  );
}

/**
 * The MCP servers of mcp-servers.json for one user. Read when the page opens, when the user changes
 * and on request, not on every live event: each read starts every server.
 */
function McpServersSection({ subject }: { subject: string }) {
  const [answer, setAnswer] = useState<{ configured: boolean; servers: McpServerItem[] } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [checks, setChecks] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setBusy(true);
    get<{ configured: boolean; servers: McpServerItem[] }>(`/api/mcp-servers${query({ subject })}`)
      .then((result) => {
        if (!current) return;
        setAnswer(result);
        setError(undefined);
      })
      .catch(
        (failure: unknown) => current && setError(failure instanceof Error ? failure.message : 'Failed.'),
      )
      .finally(() => current && setBusy(false));
    return () => {
      current = false;
    };
  }, [subject, checks]);

  return (
    <section aria-labelledby="mcp-servers-heading" class="mcp-servers">
      <h2 id="mcp-servers-heading">MCP servers</h2>
      <p class="summary" aria-live="polite">
        {answer === undefined
          ? 'Checking…'
          : !answer.configured || answer.servers.length === 0
            ? 'No MCP servers are configured (mcp-servers.json).'
            : `${answer.servers.filter((server) => server.status === 'up').length} of ${answer.servers.length} up for ${subject}.`}
      </p>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      {answer?.servers.map((server) => (
        <McpServerCard key={server.name} server={server} />
      ))}
      <button type="button" disabled={busy} onClick={() => setChecks((count) => count + 1)}>
        {busy ? 'Checking…' : 'Check servers again'}
      </button>
    </section>
  );
}

/** Connectors: one user's status per connector; connect, disconnect, and the admin switches. */
export function ConnectorsPage({ subject }: { subject: string }) {
  const live = useLive();
  const [items, setItems] = useState<ConnectorItem[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    get<{ connectors: ConnectorItem[] }>(`/api/connectors${query({ subject })}`)
      .then((answer) => {
        if (!current) return;
        setItems(answer.connectors);
        setError(undefined);
      })
      .catch(
        (failure: unknown) => current && setError(failure instanceof Error ? failure.message : 'Failed.'),
      );
    return () => {
      current = false;
    };
  }, [subject, live.connectors, reloads]);

  return (
    <section>
      <p class="summary" aria-live="polite">
        {items === undefined
          ? 'Loading…'
          : `${items.filter((item) => item.status === 'connected').length} of ${items.length} connected for ${subject}.`}
      </p>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      {items?.length === 0 && <p>No connectors are installed.</p>}
      {items?.map((connector) => (
        <ConnectorCard
          key={connector.id}
          connector={connector}
          subject={subject}
          reload={() => setReloads((count) => count + 1)}
        />
      ))}
      <McpServersSection subject={subject} />
    </section>
  );
}
