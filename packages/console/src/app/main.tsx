import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, onSessionEnded, post, type SessionInfo, setCsrfToken } from './api.js';
import { LiveContext, useLiveEvents } from './live.js';
import { ActivityPage } from './pages/activity.js';
import { ConnectorsPage } from './pages/connectors.js';
import { ContextPage } from './pages/context.js';
import { ProposalsPage } from './pages/proposals.js';
import './styles.css';

const pages = [
  { id: 'proposals', title: 'Proposals' },
  { id: 'connectors', title: 'Connectors' },
  { id: 'activity', title: 'Activity' },
  { id: 'context', title: 'Context' },
] as const;

type PageId = (typeof pages)[number]['id'];

function pageFromHash(): PageId {
  const id = location.hash.replace(/^#\/?/, '');
  return pages.find((page) => page.id === id)?.id ?? 'proposals';
}

/**
 * The user whose view the pages show. What is typed is the field's own draft until Enter (or
 * leaving the field) picks it: the page re-renders on every live event, and a field bound to the
 * picked user would put the old name back over what the admin was typing.
 */
function UserPicker({
  subject,
  subjects,
  onPick,
}: {
  subject: string;
  subjects: readonly string[];
  onPick: (subject: string) => void;
}) {
  const [draft, setDraft] = useState(subject);
  // A user picked elsewhere (the session's own on load) shows in the field.
  useEffect(() => setDraft(subject), [subject]);
  const pick = (value: string) => {
    const trimmed = value.trim();
    if (trimmed) onPick(trimmed);
    else setDraft(subject);
  };
  return (
    <div class="user-picker">
      <label for="subject">User</label>
      <input
        id="subject"
        list="known-subjects"
        value={draft}
        autocomplete="off"
        spellcheck={false}
        onInput={(event) => setDraft((event.target as HTMLInputElement).value)}
        onChange={(event) => pick((event.target as HTMLInputElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') pick((event.target as HTMLInputElement).value);
        }}
      />
      <datalist id="known-subjects">
        {subjects.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </div>
  );
}

function App() {
  const [session, setSession] = useState<SessionInfo | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [page, setPage] = useState<PageId>(pageFromHash());
  const [subject, setSubject] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const live = useLiveEvents(session !== undefined);

  useEffect(() => {
    // Any 401 later on: the session ended on the server (a limit, a sign-out in another tab).
    onSessionEnded(() => {
      setSession(undefined);
      setFailure(
        'Your console session ended (30 minutes without use, 8 hours after signing in, or signed out). Open the new link patchbay console printed in your terminal.',
      );
    });
    get<SessionInfo>('/api/session')
      .then((info) => {
        setCsrfToken(info.csrf_token);
        setSession(info);
        setSubject(info.subject);
      })
      .catch((error: unknown) =>
        setFailure(
          error instanceof ApiError && error.status === 401
            ? 'Sign in with the link that patchbay console printed in your terminal.'
            : 'The console could not be reached. Is patchbay console still running?',
        ),
      );
  }, []);

  useEffect(() => {
    const onHash = () => {
      setPage(pageFromHash());
      // Moving to another page moves focus to its heading, so a screen reader announces it.
      requestAnimationFrame(() => heading.current?.focus());
    };
    addEventListener('hashchange', onHash);
    // The hash may have changed between the first render and this listener: read it once more.
    setPage(pageFromHash());
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const title = pages.find((candidate) => candidate.id === page)!.title;
  useEffect(() => {
    document.title = `${title} · Patchbay console`;
  }, [title]);

  if (failure) {
    return (
      <main class="signed-out">
        <h1>Patchbay console</h1>
        <p role="alert">{failure}</p>
      </main>
    );
  }
  if (!session) {
    return (
      <main>
        <p aria-live="polite">Loading…</p>
      </main>
    );
  }
  const subjects = [...new Set([...session.subjects, subject])].filter(Boolean).sort();
  return (
    <LiveContext.Provider value={live}>
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          Patchbay <span>console</span>
        </div>
        <nav aria-label="Pages">
          <ul>
            {pages.map((candidate) => (
              <li key={candidate.id}>
                <a href={`#/${candidate.id}`} aria-current={candidate.id === page ? 'page' : undefined}>
                  {candidate.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <UserPicker subject={subject} subjects={subjects} onPick={setSubject} />
        <span class={`live-dot ${live.connected ? 'on' : 'off'}`} role="status">
          {live.connected ? 'Live' : 'Reconnecting…'}
        </span>
        <button
          type="button"
          class="sign-out"
          onClick={() => {
            post('/api/sign-out')
              .catch(() => undefined)
              .finally(() => {
                setSession(undefined);
                setFailure(
                  'Signed out. To sign in again, open the new link patchbay console printed in your terminal.',
                );
              });
          }}
        >
          Sign out
        </button>
      </header>
      <main id="content">
        <h1 tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {page === 'proposals' && <ProposalsPage subject={subject} />}
        {page === 'connectors' && <ConnectorsPage subject={subject} />}
        {page === 'activity' && <ActivityPage />}
        {page === 'context' && <ContextPage subject={subject} />}
      </main>
    </LiveContext.Provider>
  );
}

render(<App />, document.getElementById('root')!);
