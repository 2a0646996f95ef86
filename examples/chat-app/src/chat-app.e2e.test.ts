// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators, whose innerText() is the visible text a person reads.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChatServer, startChatServer } from './chat-server.ts';

// Chromium, a server and a page per test on a busy CI machine: minutes, not the shared 20 s. One wait
// gets half a test's time, so a wait that never ends fails naming its locator, not as a test timeout.
const e2eTimeoutMs = 120_000;
const waitTimeoutMs = e2eTimeoutMs / 2;
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

/** Debian's Chromium package, never a downloaded browser build. */
const chromiumPath = process.env.PATCHBAY_CHROMIUM ?? '/usr/bin/chromium';
// On a machine without Debian's chromium the suite is reported skipped, except in CI, where it must run.
const canRun = existsSync(chromiumPath) || process.env.CI === 'true';
const builtPage = fileURLToPath(new URL('../dist/app/index.html', import.meta.url));

let browser: Browser | undefined;
const servers: ChatServer[] = [];

/** A fresh chat server (its own workspace, nothing deleted yet) and a tab on its page. */
async function openChat(): Promise<{ page: Page; server: ChatServer }> {
  const server = await startChatServer({ port: 0 });
  servers.push(server);
  const context = await browser!.newContext();
  context.setDefaultTimeout(waitTimeoutMs);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('heading', { name: 'Patchbay chat' }).waitFor();
  return { page, server };
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The card of the newest call of `tool` on the page. */
function toolCard(page: Page, tool: string) {
  return page.locator(`[data-tool="${tool}"]`).last();
}

describe.skipIf(!canRun)('the chat app in a browser', () => {
  beforeAll(async () => {
    // `pnpm test` builds the page first; a lone `vitest run` builds it here when it is missing.
    if (!existsSync(builtPage)) {
      await build({
        configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
        logLevel: 'warn',
      });
    }
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      timeout: e2eTimeoutMs,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
    for (const server of servers.splice(0)) await server.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('streams the reply and shows the connector status the turn captured', async () => {
    const { page, server } = await openChat();
    await page.getByText('The status shows with the first reply').waitFor();
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/chat'));
    await send(page, 'hello');
    expect((await answer).headers()['content-type']).toContain('text/event-stream');
    await page.locator('.message-assistant').getByText('Hello! I can list the open issues').waitFor();
    expect(await page.locator('.message-user').innerText()).toContain('hello');

    const tracker = page.locator('[data-connector="tracker"]');
    await tracker.locator('.badge-connected').waitFor();
    expect(await tracker.getAttribute('data-status')).toBe('connected');
    expect(await tracker.innerText()).toContain('tracker_delete_issue');
    const chat = page.locator('[data-connector="chat"]');
    expect(await chat.getAttribute('data-status')).toBe('not_configured');
    expect(await chat.innerText()).toContain('Could be set up');
    expect(await chat.innerText()).toContain('Post updates to a channel');
    expect(await chat.getByRole('link', { name: 'Set up chat' }).getAttribute('href')).toBe(
      'https://chat.test/connect',
    );
    expect(server.chatRequests).toBe(1);
    expect(server.workspace.deleted).toEqual([]);
  });

  it('holds a destructive call for approval; Approve runs it exactly once and the result shows', async () => {
    const { page, server } = await openChat();
    await send(page, 'delete issue WEB-1');
    const card = toolCard(page, 'tracker_delete_issue');
    await card.and(page.locator('[data-state="approval-requested"]')).waitFor();
    expect(await card.locator('.tool-input').innerText()).toContain('"key": "WEB-1"');
    await expect(card.getByRole('button', { name: 'Approve' }).isVisible()).resolves.toBe(true);
    await expect(card.getByRole('button', { name: 'Reject' }).isVisible()).resolves.toBe(true);
    // Asked, not run: the gate holds it as a proposal until a person decides.
    expect(server.workspace.deleted).toEqual([]);
    const [proposal] = await server.workspace.orchestrator.listProposals({ state: 'pending' });
    expect(proposal?.tool).toBe('tracker_delete_issue');

    const decision = page.waitForRequest((request) => request.url().endsWith('/api/chat'));
    await card.getByRole('button', { name: 'Approve' }).click();
    const decisionBody = (await decision).postData()!;
    expect(decisionBody).toContain('"approval-responded"');
    await card.and(page.locator('[data-state="output-available"]')).waitFor();
    expect(await card.locator('.tool-output').innerText()).toContain('"deleted": "WEB-1"');
    await page.getByText('Done: WEB-1 is deleted.').waitFor();
    expect(server.workspace.deleted).toEqual(['WEB-1']);
    expect(server.chatRequests).toBe(2);
    expect(await card.getByRole('button').count()).toBe(0);

    // The same decision sent again (a second tab, a retried request) is answered but runs nothing.
    const replay = await fetch(new URL('api/chat', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: decisionBody,
    });
    expect(await replay.text()).toContain('nothing was run');
    expect(server.workspace.deleted).toEqual(['WEB-1']);

    // The conversation goes on in the same thread, and nothing runs the deletion again.
    await send(page, 'list issues');
    await page.getByText('Open issues: WEB-2, WEB-3.').waitFor();
    expect(server.workspace.deleted).toEqual(['WEB-1']);
    expect(server.chatRequests).toBe(4);
  });

  it('Reject leaves the call unrun and says so', async () => {
    const { page, server } = await openChat();
    await send(page, 'delete issue WEB-2');
    const card = toolCard(page, 'tracker_delete_issue');
    await card.and(page.locator('[data-state="approval-requested"]')).waitFor();
    await card.getByRole('button', { name: 'Reject' }).click();
    await card.and(page.locator('[data-state="output-denied"]')).waitFor();
    expect(await card.innerText()).toContain('Rejected: it did not run.');
    await page.getByText('Understood: you rejected it, so nothing was deleted.').waitFor();
    expect(server.workspace.deleted).toEqual([]);
    expect(server.workspace.issues).toContain('WEB-2');
    const rejected = await server.workspace.orchestrator.listProposals({ state: 'rejected' });
    expect(rejected.map((proposal) => proposal.tool)).toEqual(['tracker_delete_issue']);
  });
});
