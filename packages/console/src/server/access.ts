import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A signed-in browser: its session id (in the HttpOnly cookie) and its CSRF token (sent as a header). */
export interface ConsoleSession {
  id: string;
  csrfToken: string;
  createdAt: number;
}

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

  constructor(port: number, token: string = randomToken()) {
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
    const session: ConsoleSession = { id: randomToken(), csrfToken: randomToken(), createdAt: Date.now() };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session the request's cookie names, if any. */
  sessionOf(request: IncomingMessage): ConsoleSession | undefined {
    const id = readCookie(request, this.cookieName);
    if (!id) return undefined;
    for (const session of this.sessions.values()) {
      if (sameSecret(id, session.id)) return session;
    }
    return undefined;
  }

  /** Whether the request carries the session's CSRF token in `x-csrf-token`. */
  hasCsrfToken(request: IncomingMessage, session: ConsoleSession): boolean {
    const header = request.headers['x-csrf-token'];
    return typeof header === 'string' && sameSecret(header, session.csrfToken);
  }

  /** The Set-Cookie value for a session. */
  sessionCookie(session: ConsoleSession): string {
    return `${this.cookieName}=${session.id}; HttpOnly; SameSite=Strict; Path=/`;
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
