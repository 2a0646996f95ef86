#!/usr/bin/env node
// A test stand-in for a remote MCP server behind OAuth 2.1: the authorization server and the
// protected MCP server in one process, on 127.0.0.1. It implements what the MCP authorization spec
// asks of both: protected-resource metadata (RFC 9728) and a WWW-Authenticate challenge on 401,
// authorization-server metadata (RFC 8414), dynamic client registration (RFC 7591), the
// authorization code grant with PKCE S256 only, refresh with rotation, and revocation (RFC 7009).
// The authorization endpoint approves at once (no login page) and redirects to the client's
// registered redirect URI, so a test's scripted "browser" only follows redirects.
//
// Settings from the environment: OAUTH_ACCESS_TOKEN_TTL_S (default 3600). It prints
// `listening <base URL>` on stdout once ready. Test-only endpoints under /test: `GET /test/stats`
// (counts of registrations, authorizations and grants), `POST /test/revoke-all` (revokes every grant),
// `POST /test/expire-access-tokens` (every access token issued so far expires now).

import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const accessTokenTtlS = Number(process.env.OAUTH_ACCESS_TOKEN_TTL_S ?? 3600);
const clients = new Map(); // client_id → { redirect_uris, client_secret? }
const codes = new Map(); // code → { client_id, redirect_uri, challenge, scope, resource, grant }
const accessTokens = new Map(); // token → { grant, expiresAt }
const refreshTokens = new Map(); // token → { grant, client_id }
const revokedGrants = new Set();
const stats = {
  registrations: 0,
  authorizations: 0,
  authorization_code: 0,
  refresh_token: 0,
  revocations: 0,
};
let base = '';

const token = () => randomBytes(24).toString('base64url');

function json(response, status, body, headers = {}) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  response.end(JSON.stringify(body));
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function resourceMetadataUrl() {
  return `${base}/.well-known/oauth-protected-resource/mcp`;
}

function challenge(response, error) {
  json(
    response,
    401,
    { error: error ?? 'invalid_token' },
    {
      'www-authenticate': `Bearer${error ? ` error="${error}",` : ''} resource_metadata="${resourceMetadataUrl()}", scope="tools"`,
    },
  );
}

/** Client authentication at the token endpoint: public clients send only client_id. */
function authenticateClient(form, request) {
  let clientId = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
  if (basic) {
    const [id, pass] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    clientId = decodeURIComponent(id ?? '');
    secret = decodeURIComponent(pass ?? '');
  }
  const client = clients.get(clientId);
  if (!client) return undefined;
  if (client.client_secret !== undefined && client.client_secret !== secret) return undefined;
  return { clientId, client };
}

function issueTokens(grant, clientId, scope) {
  const access = token();
  const refresh = token();
  accessTokens.set(access, { grant, expiresAt: Date.now() + accessTokenTtlS * 1000 });
  refreshTokens.set(refresh, { grant, client_id: clientId, scope });
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: accessTokenTtlS,
    refresh_token: refresh,
    scope,
  };
}

function mcpServer(accessToken) {
  const server = new McpServer({ name: 'oauth-test-server', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text.', inputSchema: { text: z.string().describe('Text to echo') } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  // A careless server: repeats the caller's bearer token in its answer.
  server.registerTool(
    'echo_token',
    { description: 'Says which token the request carried (a leak to be redacted).', inputSchema: {} },
    async () => ({ content: [{ type: 'text', text: `Your token is ${accessToken}` }] }),
  );
  return server;
}

async function handleMcp(request, response) {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer (.+)$/i.exec(header)?.[1];
  if (!bearer) return challenge(response);
  const entry = accessTokens.get(bearer);
  if (!entry || revokedGrants.has(entry.grant) || entry.expiresAt <= Date.now()) {
    return challenge(response, 'invalid_token');
  }
  // Stateless: one server and transport per request.
  const server = mcpServer(bearer);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  const body = request.method === 'POST' ? JSON.parse((await readBody(request)) || 'null') : undefined;
  await transport.handleRequest(request, response, body);
}

async function handle(request, response) {
  const url = new URL(request.url ?? '/', base);
  const path = url.pathname;
  if (
    path === '/.well-known/oauth-protected-resource/mcp' ||
    path === '/.well-known/oauth-protected-resource'
  ) {
    return json(response, 200, {
      resource: `${base}/mcp`,
      authorization_servers: [base],
      scopes_supported: ['tools'],
      bearer_methods_supported: ['header'],
    });
  }
  if (path === '/.well-known/oauth-authorization-server') {
    return json(response, 200, {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      revocation_endpoint: `${base}/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      scopes_supported: ['tools'],
    });
  }
  if (path === '/register' && request.method === 'POST') {
    const metadata = JSON.parse(await readBody(request));
    if (!Array.isArray(metadata.redirect_uris) || metadata.redirect_uris.length === 0) {
      return json(response, 400, { error: 'invalid_redirect_uri' });
    }
    const clientId = `client-${token()}`;
    const confidential =
      metadata.token_endpoint_auth_method && metadata.token_endpoint_auth_method !== 'none';
    const client = {
      redirect_uris: metadata.redirect_uris,
      ...(confidential ? { client_secret: token() } : {}),
    };
    clients.set(clientId, client);
    stats.registrations += 1;
    return json(response, 201, {
      ...metadata,
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      ...(client.client_secret ? { client_secret: client.client_secret, client_secret_expires_at: 0 } : {}),
    });
  }
  if (path === '/authorize' && request.method === 'GET') {
    const params = url.searchParams;
    const client = clients.get(params.get('client_id'));
    const redirectUri = params.get('redirect_uri');
    if (!client?.redirect_uris.includes(redirectUri)) {
      return json(response, 400, {
        error: 'invalid_request',
        error_description: 'unknown client or redirect_uri',
      });
    }
    const back = new URL(redirectUri);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    if (
      params.get('response_type') !== 'code' ||
      params.get('code_challenge_method') !== 'S256' ||
      !params.get('code_challenge')
    ) {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = token();
      codes.set(code, {
        client_id: params.get('client_id'),
        redirect_uri: redirectUri,
        challenge: params.get('code_challenge'),
        scope: params.get('scope') ?? 'tools',
        grant: token(),
      });
      stats.authorizations += 1;
      back.searchParams.set('code', code);
    }
    response.writeHead(302, { location: back.href });
    return response.end();
  }
  if (path === '/token' && request.method === 'POST') {
    const form = new URLSearchParams(await readBody(request));
    const authenticated = authenticateClient(form, request);
    if (!authenticated) return json(response, 401, { error: 'invalid_client' });
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const entry = codes.get(form.get('code'));
      codes.delete(form.get('code'));
      const verifier = form.get('code_verifier') ?? '';
      const computed = createHash('sha256').update(verifier).digest('base64url');
      if (
        !entry ||
        entry.client_id !== authenticated.clientId ||
        entry.redirect_uri !== form.get('redirect_uri') ||
        entry.challenge !== computed
      ) {
        return json(response, 400, { error: 'invalid_grant' });
      }
      stats.authorization_code += 1;
      return json(response, 200, issueTokens(entry.grant, authenticated.clientId, entry.scope));
    }
    if (grantType === 'refresh_token') {
      const entry = refreshTokens.get(form.get('refresh_token'));
      if (!entry || entry.client_id !== authenticated.clientId || revokedGrants.has(entry.grant)) {
        return json(response, 400, { error: 'invalid_grant' });
      }
      // Rotation: the used refresh token is spent.
      refreshTokens.delete(form.get('refresh_token'));
      stats.refresh_token += 1;
      return json(response, 200, issueTokens(entry.grant, authenticated.clientId, entry.scope));
    }
    return json(response, 400, { error: 'unsupported_grant_type' });
  }
  if (path === '/revoke' && request.method === 'POST') {
    const form = new URLSearchParams(await readBody(request));
    const value = form.get('token');
    const grant = accessTokens.get(value)?.grant ?? refreshTokens.get(value)?.grant;
    // Revoking either token of a grant ends the whole grant (RFC 7009 §2.1 allows it).
    if (grant) revokedGrants.add(grant);
    stats.revocations += 1;
    response.writeHead(200);
    return response.end();
  }
  if (path === '/test/stats') return json(response, 200, stats);
  if (path === '/test/revoke-all' && request.method === 'POST') {
    for (const { grant } of accessTokens.values()) revokedGrants.add(grant);
    stats.revocations += 1;
    return json(response, 200, { revoked: revokedGrants.size });
  }
  if (path === '/test/expire-access-tokens' && request.method === 'POST') {
    // What the TTL does with time, at once: a test need not wait for a token to expire.
    for (const entry of accessTokens.values()) entry.expiresAt = 0;
    return json(response, 200, { expired: accessTokens.size });
  }
  if (path === '/mcp') return handleMcp(request, response);
  return json(response, 404, { error: 'not_found' });
}

const server = createServer((request, response) => {
  handle(request, response).catch((error) => {
    if (!response.headersSent)
      json(response, 500, { error: 'server_error', error_description: String(error) });
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`listening ${base}\n`);
});
process.on('SIGTERM', () => process.exit(0));
