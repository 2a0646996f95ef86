import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import {
  approvalsFromUIMessages,
  createInMemoryThreadStore,
  lastUserText,
  type RunTurnOptions,
  streamTurn,
} from '@patchbay/turn';
import { type UIMessage, validateUIMessages } from 'ai';
import { createDemoModel } from './demo-model.ts';
import { createDemoWorkspace, type DemoWorkspace } from './demo-workspace.ts';

/** Options of {@link startChatServer}. */
export interface ChatServerOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** Any AI SDK language model; the scripted demo model by default. */
  model?: RunTurnOptions['model'];
  /** Connectors, status source and gate; the in-memory demo workspace by default. */
  workspace?: DemoWorkspace;
  /** Where `vite build` put the page; `dist/app` of this example by default. */
  appDirectory?: string;
}

/** A running chat server. */
export interface ChatServer {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /** The workspace its turns run against (the test counts what really ran there). */
  workspace: DemoWorkspace;
  /** How many POST /api/chat requests it answered: one per message sent, one per approval decision. */
  readonly chatRequests: number;
  /** Drops open connections, stops listening and stops the gate's agents. */
  close(): Promise<void>;
}

const defaultAppDirectory = fileURLToPath(new URL('../dist/app/', import.meta.url));
// A chat history is text; a body this large is a mistake or an attack, not a conversation.
const maxBodyBytes = 1_000_000;
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/**
 * Serves the built page and `POST /api/chat` on 127.0.0.1. Each POST is one run of a Patchbay turn,
 * streamed back in the AI SDK UI message stream protocol that `useChat` reads: a new user message
 * starts a turn; a message list carrying approval responses resumes it, and the gate runs (or
 * rejects) the approved call.
 */
export async function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  const workspace = options.workspace ?? (await createDemoWorkspace());
  const model = options.model ?? createDemoModel();
  const appDirectory = resolve(options.appDirectory ?? defaultAppDirectory);
  // The server keeps each chat's history (with message times and tool results) by the chat id useChat
  // sends; the browser's copy is for display. A real app keys it by its signed-in user too.
  const threadStore = createInMemoryThreadStore();
  let chatRequests = 0;

  async function handleChat(request: IncomingMessage, response: ServerResponse): Promise<void> {
    chatRequests += 1;
    const body = JSON.parse(await readBody(request)) as { id?: unknown; messages?: unknown };
    const messages = await validateUIMessages<UIMessage>({ messages: body.messages });
    const chatId = typeof body.id === 'string' && body.id !== '' ? body.id : 'default';
    // The person closing the tab stops the turn: no model call starts after it.
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const turn = streamTurn({
      model,
      thread: `${workspace.subject}:${chatId}`,
      threadStore,
      subject: workspace.subject,
      orchestrator: workspace.orchestrator,
      connectors: workspace.connectors,
      statusSource: workspace.statusSource,
      identity: 'You are the team assistant of the chat-app example.',
      message: lastUserText(messages),
      approvals: approvalsFromUIMessages(messages),
      signal: abort.signal,
    });
    await sendWebResponse(turn.toUIMessageStreamResponse(), response);
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    // Only pages of this server may talk to it: a page elsewhere (or a DNS name rebound to 127.0.0.1)
    // must not start turns that act on the user's connectors.
    if (!fromThisServer(request)) return sendText(response, 403, 'Forbidden');
    if (url.pathname === '/api/chat') {
      if (request.method !== 'POST') return sendText(response, 405, 'Use POST');
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendText(response, 415, 'Send JSON');
      }
      handleChat(request, response).catch((error: unknown) => {
        if (response.headersSent) response.destroy();
        else sendText(response, 400, error instanceof Error ? error.message : 'Bad request');
      });
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendText(response, 405, 'Use GET');
    sendFile(response, appDirectory, url.pathname);
  });
  await new Promise<void>((listening) => server.listen(options.port ?? 0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    workspace,
    get chatRequests() {
      return chatRequests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
      await workspace.orchestrator.stop();
    },
  };
}

function fromThisServer(request: IncomingMessage): boolean {
  const port = request.socket.localPort;
  const host = request.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return false;
  const origin = request.headers.origin;
  return origin === undefined || origin === `http://${host}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new Error('The request body is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Copies a web `Response` (what `toUIMessageStreamResponse` makes) onto Node's response, streaming. */
async function sendWebResponse(webResponse: Response, response: ServerResponse): Promise<void> {
  response.writeHead(webResponse.status, Object.fromEntries(webResponse.headers));
  if (!webResponse.body) {
    response.end();
    return;
  }
  await pipeline(Readable.fromWeb(webResponse.body as NodeReadableStream<Uint8Array>), response);
}

function sendFile(response: ServerResponse, appDirectory: string, pathname: string): void {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    sendText(response, 400, 'Bad path');
    return;
  }
  const file = resolve(join(appDirectory, relative));
  // Only files of the built page, never a path that climbs out of it.
  if (file.startsWith(appDirectory + sep) && existsSync(file) && statSync(file).isFile()) {
    response.writeHead(200, {
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
    });
    response.end(readFileSync(file));
  } else if (existsSync(join(appDirectory, 'index.html'))) {
    sendText(response, 404, 'Not found');
  } else {
    sendText(response, 503, 'The page is not built yet: run `pnpm build` in examples/chat-app.');
  }
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}
