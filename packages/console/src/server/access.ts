import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A signed-in browser: its session id (in the HttpOnly cookie) and its CSRF token (sent as a header). */
export interface ConsoleSession {
  id: string;
  csrfToken: string;
  /** Epoch ms of the sign-in: the absolute limit counts from here. */
  createdAt: number;
  /** Epoch ms of the last request made with it: the idle limit counts from here. */
  lastSeenAt: number;
}

/**
 * A console session ends after 30 minutes without a request. The console approves destructive
 * calls and stores credentials with the user's authority, so a browser left open on a shared or
 * unlocked machine should not keep that authority for long; 30 minutes is the upper end OWASP's
 * session guidance gives for such applications and long enough to read a proposal and decide.
 */
export const defaultSessionIdleTimeoutMs = 30 * 60_000;

/**
 * A console session ends 8 hours after its sign-in however active it is: a working day. A stolen
 * cookie is then good for one day at most, and signing in again costs one `patchbay console` link.
 */
export const defaultSessionMaxAgeMs = 8 * 60 * 60_000;

/** How long console sessions last. */
export interface SessionLimits {
  /** Ends a session this long after its last request, in ms. */
  idleTimeoutMs: number;
  /** Ends a session this long after its sign-in, in ms, however active. */
  maxAgeMs: number;
}

/** Why a session is over: the person signed out, or a limit ran out. */
export type SessionEnd = 'signed_out' | 'expired';

/** A fresh random token: 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares two secrets in constant time (their hashes, so unequal lengths leak nothing either). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Reads one cookie from a request. */
export function readCookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * Who may use the console: whoever opened the printed URL first. The access token in it is good for
 * one exchange, for a session cookie (HttpOnly, SameSite=Strict); a leaked browser history then holds
 * a dead token. Every state-changing request also needs the session's CSRF token in a header, which a
 * page of another origin cannot read or set.
 */
export class ConsoleAccess {
  private accessToken: string | undefined;
  private readonly sessions = new Map<string, ConsoleSession>();

  /** Name of the session cookie: per port, because cookies do not keep ports apart. */
  readonly cookieName: string;

  constructor(
    port: number,
    token: string = randomToken(),
    private readonly limits: SessionLimits = {
      idleTimeoutMs: defaultSessionIdleTimeoutMs,
      maxAgeMs: defaultSessionMaxAgeMs,
    },
    private readonly now: () => number = Date.now,
    /** Told of every session that ends, once, with why. */
    private readonly onEnd: (session: ConsoleSession, why: SessionEnd) => void = () => undefined,
  ) {
    this.accessToken = token;
    this.cookieName = `patchbay_console_${port}`;
  }

  /** The one-time access token, until it was exchanged. */
  get pendingToken(): string | undefined {
    return this.accessToken;
  }

  /** Issues a new one-time access token (the old one, if unused, stops working). */
  renewToken(): string {
    this.accessToken = randomToken();
    return this.accessToken;
  }

  /** Exchanges the access token for a new session; undefined when the token is wrong or used. */
  exchange(token: string): ConsoleSession | undefined {
    if (this.accessToken === undefined || !sameSecret(token, this.accessToken)) return undefined;
    this.accessToken = undefined;
    const now = this.now();
    const session: ConsoleSession = {
      id: randomToken(),
      csrfToken: randomToken(),
      createdAt: now,
      lastSeenAt: now,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /**
   * The live session the request's cookie names, if any; the request counts as activity. A session
   * past either limit is ended here, whether or not the periodic sweep came first.
   */
  sessionOf(request: IncomingMessage): ConsoleSession | undefined {
    const id = readCookie(request, this.cookieName);
    if (!id) return undefined;
    for (const session of this.sessions.values()) {
      if (!sameSecret(id, session.id)) continue;
      if (this.expired(session)) {
        this.end(session, 'expired');
        return undefined;
      }
      session.lastSeenAt = this.now();
      return session;
    }
    return undefined;
  }

  /** Ends a session server-side: its cookie and CSRF token stop working at once. */
  signOut(session: ConsoleSession): void {
    this.end(session, 'signed_out');
  }

  /** Ends every session past a limit (so their event streams close without waiting for a request). */
  sweep(): void {
    for (const session of [...this.sessions.values()]) {
      if (this.expired(session)) this.end(session, 'expired');
    }
  }

  /** How many sessions are live (tests and diagnostics). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private expired(session: ConsoleSession): boolean {
    const now = this.now();
    return (
      now - session.lastSeenAt >= this.limits.idleTimeoutMs || now - session.createdAt >= this.limits.maxAgeMs
    );
  }

  private end(session: ConsoleSession, why: SessionEnd): void {
    if (!this.sessions.delete(session.id)) return;
    this.onEnd(session, why);
  }

  /** Whether the request carries the session's CSRF token in `x-csrf-token`. */
  hasCsrfToken(request: IncomingMessage, session: ConsoleSession): boolean {
    const header = request.headers['x-csrf-token'];
    return typeof header === 'string' && sameSecret(header, session.csrfToken);
  }

  /** The Set-Cookie value for a session; the browser drops it when the absolute limit would end it. */
  sessionCookie(session: ConsoleSession): string {
    const maxAge = Math.ceil(this.limits.maxAgeMs / 1000);
    return `${this.cookieName}=${session.id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}`;
  }

  /** The Set-Cookie value that removes the session cookie from the browser. */
  clearedCookie(): string {
    return `${this.cookieName}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }
}

/**
 * Whether the request is addressed to this console, by its Host header (a page on another site
 * that resolves its own name to 127.0.0.1 — DNS rebinding — sends its own name) and, when the browser
 * sends one, its Origin. Only loopback names with our port pass.
 */
export function isOwnRequest(request: IncomingMessage, port: number): boolean {
  const allowed = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const host = request.headers.host;
  if (!host || !allowed.has(host.toLowerCase())) return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return [...allowed].some((name) => origin.toLowerCase() === `http://${name}`);
}
