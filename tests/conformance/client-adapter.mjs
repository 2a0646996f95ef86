#!/usr/bin/env node
// The client side of the MCP conformance suite, played by Patchbay's own MCP client. The suite
// starts this file once per client scenario with the scenario's server URL as the last argument,
// the scenario's name in MCP_CONFORMANCE_SCENARIO and, for some, JSON in MCP_CONFORMANCE_CONTEXT
// (a pre-registered client_id / client_secret). It connects through `createMcpAgent` with OAuth
// backed by a real SQLite store in a temporary home; when the server wants a sign-in it runs
// `authorizeMcpServer`, whose authorization URL a scripted "browser" follows (the suite's
// authorization servers approve at once and redirect to our loopback), then lists and calls every
// tool with arguments made from its input schema. Nothing secret is printed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizeMcpServer, createMcpAgent } from '@patchbay/mcp';
import { openStore } from '@patchbay/store';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const subject = 'conformance';

const home = mkdtempSync(join(tmpdir(), 'patchbay-conformance-client-'));
const store = openStore({ home, secretKey: Buffer.alloc(32, 5).toString('hex'), env: {} });

const server = {
  name: 'conformance',
  transport: 'streamable-http',
  url: serverUrl,
  headers: {},
  auth: 'auto',
  oauth: context.client_id
    ? {
        clientId: context.client_id,
        ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
      }
    : // The client metadata document URL the suite's basic-cimd scenario expects (SEP-991), as a
      // deployment would configure its own; used only by authorization servers that announce
      // support, the others get dynamic registration.
      { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' },
  timeout: 20_000,
  autoStart: true,
  trust: true,
};

/** A value of the JSON Schema type, for calling a tool the scenario offers. */
function sample(schema) {
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return schema.default ?? 1;
    case 'boolean':
      return schema.default ?? true;
    case 'string':
      return schema.default ?? schema.enum?.[0] ?? 'test';
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sample(property)]),
      );
    default:
      return null;
  }
}

/** The scripted browser: opens the authorization URL and follows redirects to our loopback. */
async function browse(url) {
  let next = url.href;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) return response.status;
    next = new URL(location, next).href;
  }
  return 0;
}

async function connect() {
  const agent = createMcpAgent(server, {
    oauth: { store, subject },
    // An app's handler that accepts a server's form as offered: every field keeps its default.
    elicitation: () => ({ action: 'accept', content: {} }),
    connectTimeoutMs: 20_000,
    retryDelayMs: 100,
    reconnect: { initialDelayMs: 600_000, maxDelayMs: 600_000 },
  });
  await agent.initialize();
  return agent;
}

let exitCode = 0;
let agent;
try {
  agent = await connect();
  const health = agent.observedHealth();
  if (health.status !== 'up' && health.reason === 'needs_authorization' && health.setupCommand) {
    await agent.shutdown();
    const result = await authorizeMcpServer(server, {
      store,
      subject,
      timeoutMs: 20_000,
      onAuthorizationUrl: (url) => browse(url).then(() => undefined),
    });
    console.log(`[adapter] ${scenario}: sign-in ${result.status}`);
    agent = await connect();
  }
  const after = agent.observedHealth();
  console.log(`[adapter] ${scenario}: server ${after.status}${after.reason ? ` (${after.reason})` : ''}`);
  if (after.status !== 'up') {
    exitCode = 1;
  } else {
    for (const tool of agent.manifest().tools) {
      const envelope = await agent.execute(tool.name, sample(tool.inputJsonSchema), {
        subject,
        signal: AbortSignal.timeout(30_000),
        correlationId: `conformance-${tool.name}`,
      });
      console.log(`[adapter] ${scenario}: ${tool.name} → ${envelope.ok ? 'ok' : envelope.error_type}`);
    }
  }
} catch (error) {
  console.error(
    `[adapter] ${scenario}: ${error?.code ?? error?.name ?? 'error'}: ${error?.message ?? error}`,
  );
  exitCode = 1;
} finally {
  await agent?.shutdown().catch(() => undefined);
  store.close();
  rmSync(home, { recursive: true, force: true });
}
process.exit(exitCode);
