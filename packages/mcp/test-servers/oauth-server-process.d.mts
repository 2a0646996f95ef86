/** The test OAuth server as a running child process (see oauth-server-process.mjs). */
export interface OAuthTestServer {
  /** The server's base URL, e.g. `http://127.0.0.1:41234`. */
  base: string;
  /** Its protected MCP endpoint (`<base>/mcp`). */
  url: string;
  /** Counts of registrations, authorizations and grants so far. */
  stats(): Promise<Record<string, number>>;
  /** Revokes every grant it has made. */
  revokeAll(): Promise<void>;
  /** Expires every access token issued so far, as its TTL would (refresh tokens stay good). */
  expireAccessTokens(): Promise<void>;
  /** Ends the child process. */
  stop(): void;
}

/** Starts oauth-server.mjs with `env` added to this process's environment. */
export function startOAuthServer(env?: Record<string, string>): Promise<OAuthTestServer>;
