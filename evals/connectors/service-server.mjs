// The msw server that stands in for the services (GitHub's REST API, Slack's Web API) behind the real
// connector packages. It intercepts fetch in the provider process, answers the routes a scenario
// declares with responses from the packages' own fixtures, and records every request, so checks can
// say what reached the service and fail a scenario whose request no route answered.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { serviceResponse } from './service-responses.mjs';

const methods = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete };

function parseRouteKey(key) {
  const match = /^([A-Z]+)\s+(\S+)$/.exec(key.trim());
  if (!match || !methods[match[1]]) throw new Error(`route "${key}" must read "METHOD https://host/path"`);
  return { method: match[1], url: match[2] };
}

async function recordOf(request) {
  const text = request.body ? await request.clone().text() : '';
  return { method: request.method.toUpperCase(), url: request.url, body: text || undefined };
}

// How long a `network.slow` route holds a request nobody aborts: far beyond any scenario's wait, well
// inside the harness's turn guard, so a request that is never aborted fails its check, not the suite.
const slowHoldMs = 20_000;

/** Resolves when `signal` aborts or after `ms`, whichever comes first. */
function heldUntilAborted(signal, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Route values name a fixture response (`github.issue`) or carry arguments for it
 * (`{ response: slack.rate_limited, retry_after_s: 120 }`).
 */
async function responseOf(value, request) {
  const { response, ...args } = typeof value === 'string' ? { response: value } : value;
  const spec = serviceResponse(response, args);
  // A slow service: the answer waits until the client gives up (or the hold ends); an aborted request
  // gets no answer at all.
  if (spec.slow) {
    await heldUntilAborted(request.signal, slowHoldMs);
    if (request.signal.aborted) return HttpResponse.error();
    return responseOf(spec.slow, request);
  }
  // The request was received (and recorded); the client gets a failed connection, no response.
  if (spec.dropped) return HttpResponse.error();
  const init = { status: spec.status ?? 200, headers: spec.headers };
  if (spec.text !== undefined) return new HttpResponse(spec.text, init);
  return spec.body === undefined ? new HttpResponse(null, init) : HttpResponse.json(spec.body, init);
}

// One msw server per process: two listening at once break each other's interception.
let server;
// promptfoo runs several scenarios at once in this process; the routes of one must never answer
// another's requests, so scenarios with a service server run one after the other.
let queue = Promise.resolve();

/**
 * Runs `body(service)` while the service server intercepts requests. `service.use(routes)` replaces
 * routes of the same key from then on; `service.take()` returns and clears the requests recorded so
 * far (answered and unhandled). An unhandled request to a service origin always fails (and is
 * recorded); `strict` extends that to every origin, for offline runs where nothing else may talk HTTP.
 */
export function withServiceServer({ routes = {}, strict = true }, body) {
  const run = queue.then(async () => {
    const table = new Map();
    const requests = [];
    const unhandled = [];
    const listeners = [];
    const origins = new Set([
      'https://api.github.com',
      'https://slack.com',
      'https://discord.com',
      'https://api.resend.com',
      'https://acme.atlassian.net',
      'https://api.linear.app',
      'https://api.notion.com',
      'https://api.twilio.com',
    ]);
    const refresh = () =>
      server.resetHandlers(
        ...[...table.entries()].map(([key, value]) => {
          const { method, url } = parseRouteKey(key);
          origins.add(new URL(url).origin);
          return methods[method](url, async ({ request }) => {
            const record = await recordOf(request);
            requests.push(record);
            // The service sees the client give up: the request's signal aborts before it answered.
            let answered = false;
            request.signal.addEventListener(
              'abort',
              () => {
                if (!answered) record.aborted = true;
              },
              { once: true },
            );
            if (request.signal.aborted) record.aborted = true;
            for (const listener of listeners) listener(record);
            const answer = await responseOf(value, request);
            answered = true;
            return answer;
          });
        }),
      );
    const service = {
      use(extra = {}) {
        for (const [key, value] of Object.entries(extra)) table.set(key, value);
        refresh();
      },
      take() {
        return { requests: requests.splice(0), unhandled: unhandled.splice(0) };
      },
      onRequest(listener) {
        listeners.push(listener);
      },
    };
    server ??= setupServer();
    service.use(routes);
    server.listen({
      async onUnhandledFrame({ frame, defaults }) {
        const request = frame.data?.request;
        if (!request) return defaults.error();
        const { origin, hostname } = new URL(request.url);
        if (!strict && !origins.has(origin)) return; // a live model's own API
        // The eval's own loopback servers (memory over HTTP) are no service: msw intercepts fetch in
        // the whole process, so a memory scenario running beside a package scenario passes through.
        if (!origins.has(origin) && (hostname === '127.0.0.1' || hostname === 'localhost')) return;
        unhandled.push(await recordOf(request));
        defaults.error();
      },
    });
    try {
      return await body(service);
    } finally {
      server.close();
      server.resetHandlers();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
