// Kept apart from serve-http.ts: callers check an address or read the default before deciding to
// serve over HTTP, and loading node:http costs ~40 ms of CPU on Node 24 (it brings undici, TLS and
// zlib) that `patchbay mcp` over stdio does not need.

/** Default of `McpGatewayHttpOptions.sessionIdleTimeoutMs`: 30 minutes. */
export const defaultSessionIdleTimeoutMs = 30 * 60 * 1000;

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether an address is a loopback one (`127.0.0.1`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.has(host.toLowerCase()) || /^127(?:\.\d{1,3}){3}$/.test(host);
}
