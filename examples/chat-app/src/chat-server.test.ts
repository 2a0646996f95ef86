import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from './chat-server.ts';
import { createDemoModel } from './demo-model.ts';

const running: ChatServer[] = [];
const directories: string[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A server whose page directory holds one index.html, so these tests need no `vite build`. */
async function start() {
  const base = mkdtempSync(join(tmpdir(), 'chat-app-page-'));
  directories.push(base);
  // A file beside the page directory, which no URL may reach.
  writeFileSync(join(base, 'secret.txt'), 'not for the browser');
  const appDirectory = join(base, 'page');
  mkdirSync(join(appDirectory, 'assets'), { recursive: true });
  writeFileSync(join(appDirectory, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(appDirectory, 'assets', 'page.js'), 'console.log(1)');
  const model = createDemoModel();
  const server = await startChatServer({ port: 0, model, appDirectory });
  running.push(server);
  return { server, model };
}

function chat(server: ChatServer, text: string, headers: Record<string, string> = {}) {
  return fetch(new URL('api/chat', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      id: 'c1',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
    }),
  });
}

/** The status of a request sent with exactly this path and these headers (Host included). */
function raw(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { path, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the chat server', () => {
  it('streams a turn in the AI SDK UI message stream protocol, the status and tool result included', async () => {
    const { server, model } = await start();
    const response = await chat(server, 'list issues');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const body = await response.text();
    expect(body).toContain('"type":"data-connector-status"');
    expect(body).toContain('"type":"tool-output-available"');
    expect(body).toContain('Open issues: WEB-1, WEB-2, WEB-3.');
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // One model call for the tool, one for the reply; the read ran through the gate, deleting nothing.
    expect(model.calls).toHaveLength(2);
    expect(server.workspace.deleted).toEqual([]);
  });

  it('refuses another origin, a foreign Host and non-JSON bodies without starting a turn', async () => {
    const { server, model } = await start();
    expect((await chat(server, 'delete issue WEB-1', { origin: 'http://evil.example' })).status).toBe(403);
    const port = new URL(server.url).port;
    expect(await raw(server.url, '/', { host: 'evil.example' })).toBe(403);
    expect(await raw(server.url, '/', { host: `localhost:${port}` })).toBe(200);
    const plain = await fetch(new URL('api/chat', server.url), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(plain.status).toBe(415);
    expect((await fetch(new URL('api/chat', server.url))).status).toBe(405);
    expect((await chat(server, 'hello', { origin: server.url.replace(/\/$/, '') })).status).toBe(200);
    // Only the last, same-origin request reached the model.
    expect(model.calls).toHaveLength(1);
    expect(await server.workspace.orchestrator.listProposals()).toEqual([]);
  });

  it('answers a malformed chat request with 400 and no model call', async () => {
    const { server, model } = await start();
    const broken = await fetch(new URL('api/chat', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c1', messages: [{ role: 'user' }] }),
    });
    expect(broken.status).toBe(400);
    expect(model.calls).toHaveLength(0);
  });

  it('serves the built page and nothing outside it', async () => {
    const { server } = await start();
    const page = await fetch(server.url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(new URL('assets/page.js', server.url))).headers.get('content-type')).toContain(
      'text/javascript',
    );
    const host = `127.0.0.1:${new URL(server.url).port}`;
    // The URL parser folds `/../`; an encoded slash survives it and only the directory check stops it.
    expect(await raw(server.url, '/..%2Fsecret.txt', { host })).toBe(404);
    expect(await raw(server.url, '/%E0%A4%A', { host })).toBe(400);
    expect((await fetch(new URL('missing.js', server.url))).status).toBe(404);
  });

  it('says how to build the page when it is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'chat-app-empty-'));
    directories.push(empty);
    const server = await startChatServer({ port: 0, appDirectory: empty });
    running.push(server);
    const response = await fetch(server.url);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('pnpm build');
  });
});
