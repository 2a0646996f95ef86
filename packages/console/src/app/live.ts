import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { type AuditRecord, get } from './api.js';

/** Counters that move when the server says something changed; pages re-read when theirs moves. */
export interface LiveState {
  proposals: number;
  connectors: number;
  /** Audit records heard since the page opened. */
  audit: AuditRecord[];
  connected: boolean;
  /** How often the stream (re)opened: what happened while it was down was not heard, so pages re-read. */
  opened: number;
}

const initial: LiveState = { proposals: 0, connectors: 0, audit: [], connected: false, opened: 0 };

/** The live state, provided by the app shell. */
export const LiveContext = createContext<LiveState>(initial);

/** The live state of the nearest provider. */
export function useLive(): LiveState {
  return useContext(LiveContext);
}

/**
 * Listens to `/api/events` (server-sent events; the browser reconnects by itself) and counts changes.
 * Only started once a session exists, so the stream is never opened without the cookie.
 */
export function useLiveEvents(enabled: boolean): LiveState {
  const [state, setState] = useState<LiveState>(initial);
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource('/api/events');
    source.onopen = () =>
      setState((current) => ({
        ...current,
        connected: true,
        opened: current.opened + 1,
        // Changes made while the stream was down were not announced: every page reads again.
        proposals: current.proposals + 1,
        connectors: current.connectors + 1,
      }));
    source.onerror = () => {
      setState((current) => ({ ...current, connected: false }));
      // The browser gives up on an answer other than 200 (a 401 once the session ended): ask why,
      // so an ended session shows as such instead of "Reconnecting…" for ever.
      if (source.readyState === EventSource.CLOSED) get('/api/session').catch(() => undefined);
    };
    source.addEventListener('change', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { topic: 'proposals' | 'connectors' };
      setState((current) => ({ ...current, [data.topic]: current[data.topic] + 1 }));
    });
    source.addEventListener('audit', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { records: AuditRecord[] };
      setState((current) => ({
        ...current,
        audit: [...current.audit, ...data.records].slice(-5_000),
        // An audited action may change what the other pages show (a connect, an approval).
        connectors: current.connectors + 1,
        proposals: current.proposals + 1,
      }));
    });
    return () => source.close();
  }, [enabled]);
  return state;
}

/** The current time, ticking every second: for countdowns. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
