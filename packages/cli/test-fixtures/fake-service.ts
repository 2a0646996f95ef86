import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test stand-in for a real SaaS API: a loopback HTTP server with one good and one revoked token. */
export interface FakeService {
  url: string;
  goodToken: string;
  revokedToken: string;
  /** Item ids deleted, in order: proves a destructive call ran exactly once. */
  deleted: string[];
  /** Authorization headers seen, to check the CLI sent the stored token. */
  close(): Promise<void>;
}

/** Starts the fake service on 127.0.0.1 with a random port. */
export async function startFakeService(options: { scopes?: string } = {}): Promise<FakeService> {
  const goodToken = 'good-token-Hq83ZsW1mPx0cVb7';
  const revokedToken = 'revoked-token-Lk29TnR4yQe6';
  const deleted: string[] = [];
  const server: Server = createServer((request, response) => {
    const auth = request.headers.authorization ?? '';
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (auth !== `Bearer ${goodToken}`) {
      send(401, { message: 'Bad credentials' });
      return;
    }
    const path = request.url ?? '/';
    if (request.method === 'GET' && path === '/whoami') {
      send(200, { login: 'demo-user' }, { 'x-scopes': options.scopes ?? 'items:read items:write' });
    } else if (request.method === 'GET' && path === '/items') {
      send(200, { items: [{ id: 'a1' }, { id: 'b2' }] });
    } else if (request.method === 'DELETE' && path.startsWith('/items/')) {
      const id = decodeURIComponent(path.slice('/items/'.length));
      deleted.push(id);
      send(200, { deleted: id });
    } else {
      send(404, { message: 'Not found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    goodToken,
    revokedToken,
    deleted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
