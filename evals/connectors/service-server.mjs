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

/**
 * Route values name a fixture response (`github.issue`) or carry arguments for it
 * (`{ response: slack.rate_limited, retry_after_s: 120 }`).
 */
function responseOf(value) {
  const { response, ...args } = typeof value === 'string' ? { response: value } : value;
  const spec = serviceResponse(response, args);
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
            requests.push(await recordOf(request));
            return responseOf(value);
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
    };
    server ??= setupServer();
    service.use(routes);
    server.listen({
      async onUnhandledFrame({ frame, defaults }) {
        const request = frame.data?.request;
        if (!request) return defaults.error();
        if (!strict && !origins.has(new URL(request.url).origin)) return; // a live model's own API
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
