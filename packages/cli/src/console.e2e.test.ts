// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators, whose innerText() is the visible text a person reads.
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '@patchbay/store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ConsoleProcess,
  chromiumPath,
  ensureScreenshotDirectory,
  launchBrowser,
  screenshotDirectory,
  startConsoleProcess,
} from '../test-fixtures/browser.js';
import { allOutput, e2eTimeoutMs, useDemoService } from '../test-fixtures/run-patchbay.js';

// Browser tests start Chromium, a console process and CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs * 2, hookTimeout: e2eTimeoutMs });

const demo = useDemoService(19);
// On a machine without Debian's chromium the suite is reported skipped, except in CI, where it must run.
const canRun = existsSync(chromiumPath) || process.env.CI === 'true';

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
const consoles: ConsoleProcess[] = [];
/** Every body the browser received from a console (HTML, scripts, API answers), to search for secrets. */
const received: string[] = [];

function context(): BrowserContext {
  if (!browser) throw new Error('the browser is not started');
  return browser.context;
}

async function openConsole(home: string): Promise<ConsoleProcess> {
  const started = await startConsoleProcess(home, { PATCHBAY_SECRET_KEY: demo.secretKey });
  consoles.push(started);
  return started;
}

/** A new tab signed in to the console (the first call uses the one-time link). */
async function signedInPage(running: ConsoleProcess, hash = ''): Promise<Page> {
  const page = await context().newPage();
  page.on('response', async (response) => {
    if (!response.url().startsWith(running.baseUrl)) return;
    if ((response.headers()['content-type'] ?? '').includes('event-stream')) return;
    received.push(await response.text().catch(() => ''));
  });
  const cookies = await context().cookies(running.baseUrl);
  await page.goto(cookies.length ? `${running.baseUrl}${hash}` : `${running.loginUrl}`);
  if (hash && !cookies.length) await page.goto(`${running.baseUrl}${hash}`);
  await page.getByRole('link', { name: 'Proposals' }).waitFor();
  return page;
}

/** Records a 10-minute rate limit on `default`'s demo connector through the store, as the gate records a 429. */
async function rateLimitDemoFromAnotherProcess(home: string): Promise<void> {
  const store = openStore({ home, secretKey: demo.secretKey, env: {} });
  try {
    await store.markRateLimited('default', 'demo', new Date(Date.now() + 10 * 60_000).toISOString());
  } finally {
    await store.close();
  }
}

/** Proposes a destructive call from the CLI and returns the proposal id. */
async function propose(home: string, itemId: string): Promise<string> {
  const call = await demo.patchbay(home, [
    'call',
    'demo_delete_item',
    '--args',
    JSON.stringify({ item_id: itemId }),
  ]);
  const envelope = JSON.parse(call.stdout);
  expect(envelope.error_type).toBe('approval_required');
  return envelope.proposal_id as string;
}

/** The status of a GET sent with exactly these headers (Host included). */
function rawStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/**
 * Controls a person cannot name: every visible input, select and button needs a label or text a
 * screen reader announces, and every control must be reachable with Tab (no positive tabindex traps).
 */
async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href]')]
      .filter((element) => !(element as HTMLInputElement).hidden && element.offsetParent !== null)
      .filter((element) => {
        const labels = (element as HTMLInputElement).labels;
        const name =
          element.getAttribute('aria-label') ??
          (labels && labels.length > 0
            ? [...labels].map((label) => label.textContent).join(' ')
            : element.textContent);
        return !name?.trim() || element.tabIndex < 0;
      })
      .map((element) => element.outerHTML.slice(0, 120)),
  );
}

function deletedCount(itemId: string): number {
  return demo.service.deleted.filter((item) => item === itemId).length;
}

describe.skipIf(!canRun)('patchbay console in a browser', () => {
  beforeAll(async () => {
    ensureScreenshotDirectory();
    browser = await launchBrowser();
  }, e2eTimeoutMs);

  afterEach(async () => {
    for (const page of context().pages()) await page.close();
    await context().clearCookies();
  });

  afterAll(async () => {
    for (const running of consoles) await running.stop();
    await browser?.close();
  }, e2eTimeoutMs);

  it('approves a destructive call from the page; the call runs exactly once and the envelope shows', async () => {
    const home = await demo.connectedHome();
    const running = await openConsole(home);
    const page = await signedInPage(running);
    expect(new URL(page.url()).search).toBe('');
    await page.getByText('0 pending').waitFor();

    // Proposed from another process after the page loaded: it appears without a reload.
    const id = await propose(home, 'a1');
    const card = page.locator(`[data-proposal="${id}"]`);
    await card.waitFor();
    await expect(card.getByRole('heading', { name: 'demo_delete_item' }).isVisible()).resolves.toBe(true);
    const argumentsText = await card.locator('dl.arguments').innerText();
    expect(argumentsText).toContain('item_id');
    expect(argumentsText).toContain('a1');
    expect(await card.innerText()).toContain('connector:demo');
    expect(await card.innerText()).toContain('Expires');
    await card.getByText('Full JSON of the arguments').click();
    expect(JSON.parse(await card.locator('details[open] pre').first().innerText())).toEqual({
      item_id: 'a1',
    });
    await page.screenshot({ path: join(ensureScreenshotDirectory(), 'proposals.png'), fullPage: true });
    expect(await unlabelledControls(page)).toEqual([]);

    expect(deletedCount('a1')).toBe(0);
    await card.getByRole('button', { name: 'Approve and run' }).click();
    await card.getByText('Approved: the call ran once.').waitFor();
    expect(deletedCount('a1')).toBe(1);
    await card.locator('.badge-executed').waitFor();
    expect(await card.innerText()).toContain('console (operator)');
    expect(await card.locator('pre.envelope').innerText()).toContain('"deleted": "a1"');
    await page.screenshot({
      path: join(ensureScreenshotDirectory(), 'proposals-decided.png'),
      fullPage: true,
    });

    // The CLI sees the same decision; approving again anywhere does not run it again.
    const listed = JSON.parse((await demo.patchbay(home, ['proposals', '--json'])).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ id, state: 'executed', decided_by: 'console (operator)' }),
    ]);
    expect((await demo.patchbay(home, ['approve', id])).code).toBe(1);
    expect(deletedCount('a1')).toBe(1);

    // At phone width the page still reads, without horizontal scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await card.waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ensureScreenshotDirectory(), 'proposals-phone.png'), fullPage: true });
  });

  it('rejects with a reason: recorded, shown, and the call never runs', async () => {
    const home = await demo.connectedHome();
    const id = await propose(home, 'b2');
    const running = await openConsole(home);
    const page = await signedInPage(running);
    const card = page.locator(`[data-proposal="${id}"]`);
    await card.waitFor();
    // Keyboard only: the reason field is labelled, and Enter submits the rejection.
    await card.getByLabel('Reason for rejecting').focus();
    await page.keyboard.type('wrong item, keep b2');
    await page.keyboard.press('Enter');
    await card.getByText('Rejected.', { exact: true }).waitFor();
    await card.locator('.badge-rejected').waitFor();
    expect(await card.innerText()).toContain('wrong item, keep b2');
    const listed = JSON.parse((await demo.patchbay(home, ['proposals', '--json'])).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ id, state: 'rejected', reason: 'wrong item, keep b2' }),
    ]);
    expect(deletedCount('b2')).toBe(0);
  });

  it('two tabs approving the same proposal at the same moment run it once', async () => {
    const home = await demo.connectedHome();
    const id = await propose(home, 'c3');
    const running = await openConsole(home);
    const first = await signedInPage(running);
    const second = await signedInPage(running);
    const buttons = [first, second].map((page) =>
      page.locator(`[data-proposal="${id}"]`).getByRole('button', { name: 'Approve and run' }),
    );
    for (const button of buttons) await button.waitFor();
    // Both clicks dispatched at once, without waiting on each other: Playwright's click waits for the
    // element to settle, and the first approval's live update would remove the second tab's button.
    const handles = await Promise.all(buttons.map((button) => button.elementHandle()));
    await Promise.all(
      handles.map((handle) => handle!.evaluate((element) => (element as HTMLElement).click())),
    );
    const messages = await Promise.all(
      [first, second].map(async (page) => {
        const message = page.locator(`[data-proposal="${id}"] .message`);
        await page.waitForFunction(
          (selector) => (document.querySelector(selector)?.textContent ?? '').trim() !== '',
          `[data-proposal="${id}"] .message`,
        );
        return message.innerText();
      }),
    );
    expect(messages.filter((text) => text === 'Approved: the call ran once.')).toHaveLength(1);
    expect(messages.filter((text) => /not pending/.test(text))).toHaveLength(1);
    expect(deletedCount('c3')).toBe(1);
  });

  it('connects with a token the service accepts, never echoing it; changes from the CLI show live', async () => {
    const home = demo.newHome();
    const running = await openConsole(home);
    const page = await signedInPage(running, '#/connectors');
    const card = page.locator('[data-connector="demo"]');
    await card.locator('[data-status="not_configured"]').waitFor();
    const field = card.getByLabel('API token');
    expect(await field.getAttribute('type')).toBe('password');

    // A revoked token: refused, recorded as invalid credentials.
    await field.fill(demo.service.revokedToken);
    await card.getByRole('button', { name: 'Verify and connect' }).click();
    await card.getByText(/Not connected: The demo service rejected the token/).waitFor();
    await card.locator('[data-status="invalid_credentials"]').waitFor();
    expect(await field.inputValue()).toBe('');

    await field.fill(demo.service.goodToken);
    await card.getByRole('button', { name: 'Verify and connect' }).click();
    await card.locator('[data-status="connected"]').waitFor();
    expect(await card.innerText()).toContain('demo-user');
    expect(await card.innerText()).toContain('items:read, items:write');
    await page.screenshot({ path: join(ensureScreenshotDirectory(), 'connectors.png'), fullPage: true });
    expect(await unlabelledControls(page)).toEqual([]);
    const html = await page.content();
    expect(html).not.toContain(demo.service.goodToken);
    expect(html).not.toContain(demo.service.revokedToken);

    // Per user: another user has no connection of their own.
    await page.getByLabel('User').fill('alice');
    await page.getByLabel('User').press('Enter');
    await page.getByText('0 of 1 connected for alice.').waitFor();
    await card.locator('[data-status="not_configured"]').waitFor();
    await page.getByLabel('User').fill('default');
    await page.getByLabel('User').press('Enter');
    await card.locator('[data-status="connected"]').waitFor();

    // The CLI agrees, and a disconnect from the CLI shows on the page without a reload.
    const status = JSON.parse((await demo.patchbay(home, ['connectors', '--json'])).stdout);
    expect(status.connectors[0]).toMatchObject({ id: 'demo', status: 'connected', identity: 'demo-user' });
    // A rate limit recorded by another process (as the gate records a 429) shows with a countdown.
    await rateLimitDemoFromAnotherProcess(home);
    await card.locator('[data-status="rate_limited"]').waitFor();
    expect(await card.locator('.countdown').innerText()).toMatch(/^\((9|10) min( \d+ s)? left\)$/);
    await page.screenshot({
      path: join(ensureScreenshotDirectory(), 'connectors-rate-limited.png'),
      fullPage: true,
    });

    expect((await demo.patchbay(home, ['disconnect', 'demo'])).code).toBe(0);
    await card.locator('[data-status="not_configured"]').waitFor();

    // Admin: disabled for everyone from the page, which the CLI then reports.
    await card.getByRole('button', { name: 'Disable for everyone' }).click();
    await card.locator('[data-status="disabled_by_admin"]').waitFor();
    const after = JSON.parse((await demo.patchbay(home, ['connectors', '--json'])).stdout);
    expect(after.connectors[0].status).toBe('disabled_by_admin');
    await card.getByRole('button', { name: 'Enable for everyone' }).click();
    await card.locator('[data-status="not_configured"]').waitFor();
  });

  it('keeps what is typed in the User field when a live update re-renders the page', async () => {
    const home = await demo.connectedHome();
    const running = await openConsole(home);
    const page = await signedInPage(running, '#/connectors');
    const card = page.locator('[data-connector="demo"]');
    await card.locator('[data-status="connected"]').waitFor();
    const field = page.getByLabel('User');
    await field.fill('alice');
    // Another process changes the shown user's status while the admin is still typing (no Enter yet).
    await rateLimitDemoFromAnotherProcess(home);
    await card.locator('[data-status="rate_limited"]').waitFor();
    expect(await field.inputValue()).toBe('alice');
    await field.press('Enter');
    await page.getByText('0 of 1 connected for alice.').waitFor();
    // Emptied and left, the field shows the user still picked.
    await field.fill('');
    await field.press('Tab');
    expect(await field.inputValue()).toBe('alice');
  });

  it('shows the audit log live, filterable, and the per-turn context with its token count', async () => {
    const home = await demo.connectedHome();
    const running = await openConsole(home);
    const page = await signedInPage(running, '#/activity');
    await page.locator('tr[data-event="connector_connected"]').waitFor();
    // Written by another process after the page loaded.
    expect((await demo.patchbay(home, ['disable', 'demo', '--user-only'])).code).toBe(0);
    await page.locator('tr[data-event="connector_disabled"]').waitFor();
    await page.getByLabel('Event').selectOption('connector_disabled');
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.screenshot({ path: join(ensureScreenshotDirectory(), 'activity.png'), fullPage: true });
    expect(await unlabelledControls(page)).toEqual([]);
    expect((await demo.patchbay(home, ['enable', 'demo', '--user-only'])).code).toBe(0);
    await page.getByLabel('Event').selectOption('');
    // At phone width the table becomes one card per entry: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('tr[data-event="connector_enabled"]').waitFor();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ensureScreenshotDirectory(), 'activity-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });

    // From the keyboard: the first Tab stop is the skip link, then the page links; Enter follows one.
    await page.reload();
    await page.locator('tr[data-event="connector_enabled"]').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByRole('link', { name: 'Context' }).focus();
    await page.keyboard.press('Enter');
    const count = page.getByTestId('token-count');
    await count.waitFor();
    const expected = JSON.parse((await demo.patchbay(home, ['context', '--json'])).stdout);
    await page.waitForFunction(
      (tokens) => document.querySelector('[data-testid="token-count"]')?.textContent === String(tokens),
      expected.tokens,
    );
    const block = await page.locator('pre.context-block').innerText();
    expect(block).toContain('<connector_status');
    expect(block).toContain('"status":"connected"');
    await page.screenshot({ path: join(ensureScreenshotDirectory(), 'context.png'), fullPage: true });
    expect(await unlabelledControls(page)).toEqual([]);
  });

  it('refuses requests without the session, with a used token, from another origin or host', async () => {
    const home = demo.newHome();
    const running = await openConsole(home);
    const api = (path: string) => new URL(path, running.baseUrl).toString();

    // No token, no cookie: 401, and the page served is the sign-in notice, not the app.
    const bare = await fetch(running.baseUrl);
    expect(bare.status).toBe(401);
    expect(await bare.text()).not.toContain('<script');
    expect((await fetch(api('/api/proposals'))).status).toBe(401);
    expect((await fetch(api('/api/session'))).status).toBe(401);

    // The link works once.
    const login = await fetch(running.loginUrl, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await fetch(running.loginUrl, { redirect: 'manual' })).status).toBe(401);
    const session = await fetch(api('/api/session'), { headers: { cookie } });
    expect(session.status).toBe(200);
    const { csrf_token: csrf } = (await session.json()) as { csrf_token: string };

    const disable = (headers: Record<string, string>) =>
      fetch(api('/api/connectors/demo/disable'), {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const own = running.baseUrl.replace(/\/$/, '');
    expect((await disable({ origin: own })).status).toBe(403); // no CSRF token
    expect((await disable({ origin: 'http://evil.example', 'x-csrf-token': csrf })).status).toBe(403);
    expect((await disable({ 'x-csrf-token': csrf })).status).toBe(403); // no Origin at all
    // fetch sets Host itself; a raw request sends what a page on a rebound DNS name would.
    expect(await rawStatus(api('/api/session'), { cookie, host: 'evil.example' })).toBe(403);
    expect(
      await rawStatus(api('/api/session'), { cookie, host: `localhost:${new URL(running.baseUrl).port}` }),
    ).toBe(200);
    expect(
      (await fetch(api('/api/session'), { headers: { cookie, origin: 'http://evil.example' } })).status,
    ).toBe(403);

    // A page of another origin in the same browser, where the console is signed in, cannot change anything.
    const [cookieName, cookieValue] = cookie.split('=') as [string, string];
    await context().addCookies([
      { name: cookieName, value: cookieValue, url: running.baseUrl, httpOnly: true, sameSite: 'Strict' },
    ]);
    const page = await signedInPage(running, '#/connectors');
    const evil: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>elsewhere</title>');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;
    try {
      await page.goto(evilUrl);
      // Two tries: a "simple" request the browser sends without asking (the server refuses it for its
      // Origin; the browser hides the answer), and one that needs a CORS preflight (refused too).
      const outcomes = await page.evaluate(async (target) => {
        const attempt = (init: RequestInit) =>
          fetch(`${target}api/connectors/demo/disable`, {
            method: 'POST',
            credentials: 'include',
            body: '{}',
            ...init,
          }).then(
            (response) => `answered ${response.status}`,
            () => 'blocked',
          );
        return Promise.all([
          attempt({ mode: 'no-cors', headers: { 'content-type': 'text/plain' } }),
          attempt({ headers: { 'content-type': 'application/json', 'x-csrf-token': 'guess' } }),
        ]);
      }, running.baseUrl);
      expect(outcomes).toEqual(['blocked', 'blocked']);
    } finally {
      // The tab keeps its connection alive: close it, or close() waits for the browser to let go.
      evil.closeAllConnections();
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
    // Nothing was disabled by any of those requests.
    const status = JSON.parse((await demo.patchbay(home, ['connectors', '--json'])).stdout);
    expect(status.connectors[0].status).toBe('not_configured');
  });

  it('shows the MCP servers on the Connectors page: up with its tools, not_configured with the sign-in command, down with why', async () => {
    const home = await demo.connectedHome();
    const echo = fileURLToPath(new URL('../test-fixtures/echo-mcp-server.mjs', import.meta.url));
    writeFileSync(
      join(home, 'mcp-servers.json'),
      JSON.stringify({
        mcpServers: {
          echo: { command: process.execPath, args: [echo], trust: true },
          // Nothing listens on port 9; with auth "oauth" and no sign-in it is not even tried.
          notes: { url: 'http://127.0.0.1:9/mcp', auth: 'oauth' },
          broken: { command: 'patchbay-no-such-command' },
        },
      }),
    );
    const running = await openConsole(home);
    const page = await signedInPage(running, '#/connectors');
    await page.getByRole('heading', { name: 'MCP servers' }).waitFor();
    await page.getByText('1 of 3 up for default.').waitFor();
    const card = (name: string) => page.locator(`[data-mcp-server="${name}"]`);
    expect(await card('echo').locator('[data-status]').getAttribute('data-status')).toBe('up');
    expect(await card('echo').innerText()).toContain('echo');
    expect(await card('notes').locator('[data-status]').getAttribute('data-status')).toBe('not_configured');
    expect(await card('notes').innerText()).toContain('patchbay connect notes');
    expect(await card('broken').locator('[data-status]').getAttribute('data-status')).toBe('down');
    expect(await card('broken').innerText()).toMatch(/not found/);
    expect(await unlabelledControls(page)).toEqual([]);
    await page.screenshot({ path: join(screenshotDirectory, 'connectors-mcp-servers.png'), fullPage: true });
    await page.getByRole('button', { name: 'Check servers again' }).click();
    await page.getByText('1 of 3 up for default.').waitFor();
  });

  it('signs out: the session ends on the server, the page says so, and the terminal gets a new link', async () => {
    const home = demo.newHome();
    const running = await openConsole(home);
    const page = await signedInPage(running);
    const cookie = (await context().cookies(running.baseUrl))[0]!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText(/^Signed out\./).waitFor();
    // The old cookie is dead on the server, not only forgotten by the browser.
    const after = await fetch(new URL('/api/session', running.baseUrl), {
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(after.status).toBe(401);
    await vi.waitFor(() => expect(running.output()).toMatch(/Signed out\. Open this link to sign in again/), {
      timeout: e2eTimeoutMs,
    });
    const links = [...running.output().matchAll(/http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/g)].map(
      (match) => match[0],
    );
    expect(links).toHaveLength(2);
    const again = await context().newPage();
    await again.goto(links[1]!);
    await again.getByRole('link', { name: 'Proposals' }).waitFor();
  });

  it('never lets a credential into a page, an API answer, the console output or the CLI output', () => {
    expect(received.length).toBeGreaterThan(10);
    for (const secret of [demo.service.goodToken, demo.service.revokedToken]) {
      for (const body of received) expect(body).not.toContain(secret);
      for (const running of consoles) expect(running.output()).not.toContain(secret);
      for (const output of allOutput) expect(output).not.toContain(secret);
    }
  });
});
