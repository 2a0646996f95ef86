import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ConsoleAccess, type ConsoleSession, type SessionEnd } from './access.js';

// The session limits on a clock the test moves: no waiting, and every boundary checked exactly.

function requestWith(access: ConsoleAccess, session: ConsoleSession): IncomingMessage {
  return { headers: { cookie: `${access.cookieName}=${session.id}` } } as IncomingMessage;
}

function setUp() {
  let now = 1_000_000;
  const ended: SessionEnd[] = [];
  const access = new ConsoleAccess(
    7300,
    'token',
    { idleTimeoutMs: 1_000, maxAgeMs: 5_000 },
    () => now,
    (_session, why) => ended.push(why),
  );
  const session = access.exchange('token')!;
  return {
    access,
    session,
    ended,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('ConsoleAccess session limits', () => {
  it('keeps a session alive while it is used within the idle limit', () => {
    const { access, session, ended, advance } = setUp();
    for (let step = 0; step < 4; step += 1) {
      advance(999);
      expect(access.sessionOf(requestWith(access, session))).toBe(session);
    }
    expect(ended).toEqual([]);
  });

  it('ends a session idle for the idle limit, once', () => {
    const { access, session, ended, advance } = setUp();
    advance(1_000);
    expect(access.sessionOf(requestWith(access, session))).toBeUndefined();
    expect(access.sessionOf(requestWith(access, session))).toBeUndefined();
    expect(ended).toEqual(['expired']);
    expect(access.sessionCount).toBe(0);
  });

  it('ends a session at the absolute limit even when it was used all along', () => {
    const { access, session, ended, advance } = setUp();
    for (let step = 0; step < 5; step += 1) {
      advance(900);
      expect(access.sessionOf(requestWith(access, session))).toBe(session);
    }
    advance(500);
    expect(access.sessionOf(requestWith(access, session))).toBeUndefined();
    expect(ended).toEqual(['expired']);
  });

  it('sweeps idle sessions without a request, and signs out at once', () => {
    const { access, session, ended, advance } = setUp();
    access.sweep();
    expect(access.sessionCount).toBe(1);
    advance(1_000);
    access.sweep();
    expect(access.sessionCount).toBe(0);
    access.renewToken();
    const second = access.exchange(access.pendingToken!)!;
    access.signOut(second);
    expect(access.sessionOf(requestWith(access, second))).toBeUndefined();
    expect(access.sessionOf(requestWith(access, session))).toBeUndefined();
    expect(ended).toEqual(['expired', 'signed_out']);
  });

  it('tells the browser to drop the cookie at the absolute limit', () => {
    const { access, session } = setUp();
    expect(access.sessionCookie(session)).toMatch(/; Max-Age=5$/);
    expect(access.clearedCookie()).toBe(
      'patchbay_console_7300=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0',
    );
  });
});
