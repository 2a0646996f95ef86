import { PatchbayError } from '@patchbay/envelope';
import { HttpResponse, http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, onTestFinished } from 'vitest';

/** A request the test server saw, in a shape that is easy to assert on. */
export interface RecordedRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Full URL including the query string. */
  url: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, the raw text otherwise, `undefined` when empty. */
  body: unknown;
  /** Query parameters (the last value wins for repeated names). */
  searchParams: Record<string, string>;
  /** msw path parameters of the matched route, e.g. `{ owner: 'octo' }` for `/repos/:owner`. */
  params: Record<string, string | readonly string[] | undefined>;
}

/** A canned response: JSON `body`, or plain `text`, or neither for an empty body. */
export interface ResponseSpec {
  /** HTTP status; 200 when omitted. */
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as `text/plain` when `body` is absent. */
  text?: string;
}

/** Computes a response from the recorded request; may return a real `Response` (e.g. `Response.error()`). */
export type RouteResolver = (
  request: RecordedRequest,
) => ResponseSpec | Response | Promise<ResponseSpec | Response>;

/** What a route answers: one spec, a resolver, or a sequence used in order (the last one repeats). */
export type Route = ResponseSpec | RouteResolver | ReadonlyArray<ResponseSpec | RouteResolver>;

/**
 * Routes keyed by `'METHOD url'` (`'GET https://api.github.com/user'`) or a bare URL for any method.
 * URLs may hold msw path parameters (`:owner`) and wildcards (`*`).
 */
export type Routes = Record<string, Route>;

/** Options of {@link createTestServer}. */
export interface TestServerOptions {
  /**
   * Registers `beforeAll(listen)`, `afterEach(reset)` and `afterAll(close)` in the calling vitest
   * suite (inside a running test: listens now and closes when the test finishes). Set `false` to
   * call `listen`/`reset`/`close` yourself.
   */
  lifecycle?: boolean;
}

/** An msw server with recorded calls, per-test overrides and automatic vitest lifecycle. */
export interface TestServer {
  /** Requests answered by a route since the last reset, in arrival order. */
  readonly calls: RecordedRequest[];
  /** Requests no route matched since the last reset; they failed and the test fails in `afterEach`. */
  readonly unhandled: RecordedRequest[];
  /** Adds routes that take precedence until the next reset. */
  use(routes: Routes): void;
  /** Makes requests to `url` (any method) fail at the network level, as an unreachable host would. */
  networkError(url: string): void;
  /** Clears recorded calls and sequence positions, and drops routes added with `use`. */
  reset(): void;
  /** Starts intercepting; requests no route matches are errors and never reach the network. */
  listen(): void;
  /** Stops intercepting. */
  close(): void;
}

type AnyHandler = ReturnType<typeof http.all>;

interface ActiveServer {
  handlers: () => AnyHandler[];
  onUnhandled: (request: RecordedRequest) => void;
}

/**
 * One msw server per process, shared by every listening TestServer. Two msw servers listening at
 * once break each other (closing one stops interception for the other), which would happen as
 * soon as a file-level server and the conformance suite's server overlap. The most recently
 * started TestServer's routes come first, so an inner describe overrides an outer one.
 */
interface SharedServer {
  server: SetupServer;
  active: ActiveServer[];
}

const sharedKey = Symbol.for('patchbay.testing.shared-msw-server');

function shared(): SharedServer {
  const holder = globalThis as { [sharedKey]?: SharedServer };
  if (!holder[sharedKey]) {
    const server = setupServer();
    const state: SharedServer = { server, active: [] };
    server.events.on('request:unhandled', ({ request }) => {
      const recorded: RecordedRequest = {
        method: request.method.toUpperCase(),
        url: request.url,
        headers: Object.fromEntries(request.headers),
        body: undefined,
        searchParams: Object.fromEntries(new URL(request.url).searchParams),
        params: {},
      };
      for (const active of state.active) active.onUnhandled(recorded);
    });
    holder[sharedKey] = state;
  }
  return holder[sharedKey];
}

function refreshShared(): void {
  const state = shared();
  state.server.resetHandlers(...[...state.active].reverse().flatMap((active) => active.handlers()));
}

function activate(server: ActiveServer): void {
  const state = shared();
  if (state.active.includes(server)) return;
  state.active.push(server);
  refreshShared();
  // 'error' makes an unmatched request reject inside the code under test, never reach the network;
  // `afterEach` then fails the test by name.
  if (state.active.length === 1) state.server.listen({ onUnhandledFrame: 'error' });
}

function deactivate(server: ActiveServer): void {
  const state = shared();
  const index = state.active.indexOf(server);
  if (index === -1) return;
  state.active.splice(index, 1);
  refreshShared();
  if (state.active.length === 0) state.server.close();
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
type Method = (typeof methods)[number];
const methodHandlers: Record<Method, typeof http.get> = {
  GET: http.get,
  POST: http.post,
  PUT: http.put,
  PATCH: http.patch,
  DELETE: http.delete,
  HEAD: http.head,
  OPTIONS: http.options,
};

function parseRouteKey(key: string): { method: Method | undefined; url: string } {
  const match = /^([A-Za-z]+)\s+(\S+)$/.exec(key.trim());
  if (match && (methods as readonly string[]).includes(match[1]!.toUpperCase())) {
    return { method: match[1]!.toUpperCase() as Method, url: match[2]! };
  }
  return { method: undefined, url: key.trim() };
}

/** Turns a {@link ResponseSpec} into a `Response`. */
export function responseFrom(spec: ResponseSpec): Response {
  const init = { status: spec.status ?? 200, headers: spec.headers };
  if (spec.body !== undefined) return HttpResponse.json(spec.body as never, init);
  if (spec.text !== undefined) return HttpResponse.text(spec.text, init);
  return new HttpResponse(null, init);
}

async function record(request: Request, params: RecordedRequest['params']): Promise<RecordedRequest> {
  const url = new URL(request.url);
  let body: unknown;
  const text = request.body ? await request.clone().text() : '';
  if (text !== '') {
    const contentType = request.headers.get('content-type') ?? '';
    try {
      body = /json/i.test(contentType) || /^[[{]/.test(text.trim()) ? JSON.parse(text) : text;
    } catch {
      body = text;
    }
  }
  return {
    method: request.method.toUpperCase(),
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body,
    searchParams: Object.fromEntries(url.searchParams),
    params: { ...params },
  };
}

/**
 * Creates an msw-backed test server from routes (after vercel/ai's test-server). Inside a vitest
 * suite it manages its own lifecycle; a request no route matches fails the test instead of
 * reaching the network.
 */
export function createTestServer(routes: Routes = {}, options: TestServerOptions = {}): TestServer {
  const calls: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const positions = new Map<object, number>();

  const handlersFor = (table: Routes) =>
    Object.entries(table).map(([key, route]) => {
      const { method, url } = parseRouteKey(key);
      const register = method ? methodHandlers[method] : http.all;
      return register(url, async ({ request, params }) => {
        const recorded = await record(request, params as RecordedRequest['params']);
        calls.push(recorded);
        let current: ResponseSpec | RouteResolver;
        if (Array.isArray(route)) {
          if (route.length === 0)
            throw new PatchbayError(
              'invalid_route',
              `createTestServer: route "${key}" has an empty response sequence`,
            );
          const position = positions.get(route) ?? 0;
          positions.set(route, position + 1);
          current = route[Math.min(position, route.length - 1)]!;
        } else {
          current = route as ResponseSpec | RouteResolver;
        }
        const result = typeof current === 'function' ? await current(recorded) : current;
        return result instanceof Response ? result : responseFrom(result);
      });
    });

  const initial = handlersFor(routes);
  let added: AnyHandler[] = [];
  const state: ActiveServer = {
    handlers: () => [...added, ...initial],
    onUnhandled: (request) => unhandled.push(request),
  };

  const testServer: TestServer = {
    get calls() {
      return calls;
    },
    get unhandled() {
      return unhandled;
    },
    use(extra) {
      added = [...handlersFor(extra), ...added];
      refreshShared();
    },
    networkError(url) {
      added = [http.all(url, () => HttpResponse.error()), ...added];
      refreshShared();
    },
    reset() {
      calls.length = 0;
      unhandled.length = 0;
      positions.clear();
      added = [];
      refreshShared();
    },
    listen() {
      activate(state);
    },
    close() {
      deactivate(state);
    },
  };

  if (options.lifecycle !== false) registerLifecycle(testServer);
  return testServer;
}

/** Throws a `PatchbayError` (`unhandled_request`) naming requests that no route matched. */
export function assertNoUnhandledRequests(unhandled: readonly RecordedRequest[]): void {
  if (unhandled.length === 0) return;
  const list = unhandled.map((request) => `${request.method} ${request.url}`).join(', ');
  throw new PatchbayError(
    'unhandled_request',
    `Unhandled request${unhandled.length > 1 ? 's' : ''} (no route matched, so it failed instead of reaching the network): ${list}`,
  );
}

function registerLifecycle(server: TestServer): void {
  // Hooks registered from inside a running test are silently ignored, which would leave the
  // server never listening: scope it to that test instead.
  if (expect.getState().currentTestName !== undefined) {
    server.listen();
    onTestFinished(() => {
      const unhandled = [...server.unhandled];
      server.close();
      assertNoUnhandledRequests(unhandled);
    });
    return;
  }
  try {
    beforeAll(() => server.listen());
    afterEach(() => {
      const unhandled = [...server.unhandled];
      server.reset();
      assertNoUnhandledRequests(unhandled);
    });
    afterAll(() => server.close());
  } catch (error) {
    throw new PatchbayError(
      'test_server_lifecycle',
      'createTestServer: could not register vitest hooks here (call it in a describe block or at file level, or pass { lifecycle: false })',
      { cause: error },
    );
  }
}
