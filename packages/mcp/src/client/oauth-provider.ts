import { PatchbayError } from '@patchbay/envelope';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '../sdk.js';
import type { McpHttpServerConfig } from './config.js';

/**
 * The part of a Patchbay store the OAuth client needs: a subject's encrypted connection per server.
 * `@patchbay/store`'s `PatchbayStore` is one; the shape is structural so this package does not
 * depend on the store.
 */
export interface McpOAuthStore {
  /** One connection with its decrypted credentials, or undefined. */
  getConnection(
    subject: string,
    connectorId: string,
  ): Promise<
    | {
        credentials: Readonly<Record<string, string>>;
        credentialError?: string | undefined;
        verifiedOrigin?: string | undefined;
      }
    | undefined
  >;
  /** Stores (or replaces) a connection, credentials encrypted; clears its error. */
  saveConnection(
    subject: string,
    connection: {
      connectorId: string;
      credentials: Record<string, string>;
      scopes: string[];
      secretFields?: readonly string[] | undefined;
      /** Origin of the server the tokens were issued for, shown in listings. */
      verifiedOrigin?: string | undefined;
    },
  ): Promise<void>;
  /** Removes a connection; false when there was none. */
  deleteConnection(subject: string, connectorId: string): Promise<boolean>;
  /** Marks a connection's credentials as rejected, with why. */
  recordFailedVerification(subject: string, connectorId: string, error: string): Promise<void>;
}

/** Where an MCP agent keeps and finds a subject's OAuth tokens for its server. */
export interface McpOAuthOptions {
  /** The store holding each subject's encrypted connection per server (a `PatchbayStore`). */
  store: McpOAuthStore;
  /** Whose tokens: the subject the agent's calls run for. */
  subject: string;
}

// Credential fields that are secret: each is encrypted by the store and redacted from server output.
const secretFields = ['access_token', 'refresh_token', 'client_secret', 'code_verifier', 'state'] as const;
type SecretField = (typeof secretFields)[number];

/** The non-secret part, kept as one JSON field beside the secrets. */
interface OAuthRecordMeta {
  /** Token fields other than the two tokens, with `expires_at` (epoch ms) in place of `expires_in`. */
  tokens?: Record<string, unknown> & { expires_at?: number };
  /** The registered client without its secret, exactly as the SDK gave it (its `issuer` stamp included). */
  client?: Record<string, unknown>;
  /** The redirect URI the client was registered with; a sign-in on another one registers again. */
  redirect_uri?: string;
  /**
   * Origin of the MCP server the sign-in was made for. It sits inside the encrypted credentials, so
   * nobody without the key can move a record to another server by editing the row.
   */
  origin?: string;
}

type OAuthRecord = Partial<Record<SecretField, string>> & { meta: OAuthRecordMeta };

/** The sentence for a subject with no sign-in; names the command that makes one. */
export function setupCommandFor(serverName: string): string {
  return `patchbay connect ${serverName}`;
}

/**
 * Why a stored sign-in must not be used for a server as now configured, or undefined when it may.
 * Tokens are issued for one server: a `url` changed to another origin (a config edit, a poisoned
 * project config) would otherwise receive the bearer token, and its discovery would name an
 * authorization server that receives the refresh token and the client secret. A record from before
 * origins were recorded names none; its server cannot be told, so it is refused like a moved one.
 */
export function oauthOriginMismatch(
  serverName: string,
  configuredUrl: string,
  storedOrigin: string | undefined,
): string | undefined {
  const configured = new URL(configuredUrl).origin;
  if (storedOrigin === configured) return undefined;
  const command = setupCommandFor(serverName);
  if (storedOrigin === undefined) {
    return `The sign-in to "${serverName}" was stored without the address it was made for, and "${serverName}" is now configured for ${configured}; run "${command}" again.`;
  }
  return `The sign-in to "${serverName}" was made for ${storedOrigin}, and "${serverName}" is now configured for ${configured}; its tokens are not sent there. Run "${command}" to sign in at the new address.`;
}

/** How an interactive sign-in drives the provider. */
export interface InteractiveOAuth {
  /** The loopback redirect URI of this sign-in. */
  redirectUrl: string;
  /** The `state` this sign-in sends and expects back. */
  state: string;
  /** Receives the authorization URL the person must open. */
  onAuthorizationUrl(url: URL): void;
}

/**
 * The SDK's {@link OAuthClientProvider} over a Patchbay store: tokens, the registered client and the
 * pending PKCE verifier live encrypted in the subject's connection for the server. Without
 * `interactive` it serves a running agent: it refreshes tokens but never starts a sign-in, and
 * instead throws `mcp_authorization_required` (no tokens) or `mcp_authorization_rejected` (the
 * authorization server refused what was stored), which the connection reports as the server's state.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private record: OAuthRecord = { meta: {} };
  private rejection: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  /** Why the stored record belongs to another origin; while set, nothing is written back over it. */
  private movedAway: string | undefined;
  /** Set once the authorization server refused the stored authorization during this attempt. */
  rejected = false;

  constructor(
    private readonly server: McpHttpServerConfig,
    private readonly options: McpOAuthOptions,
    private readonly interactive?: InteractiveOAuth,
  ) {}

  /** Re-reads the subject's stored authorization (another process may have signed in since). */
  async load(): Promise<void> {
    const stored = await this.options.store.getConnection(this.options.subject, this.server.name);
    this.rejected = false;
    this.rejection = stored?.credentialError;
    this.movedAway = undefined;
    this.record = { meta: {} };
    if (!stored) return;
    const record: OAuthRecord = { meta: {} };
    for (const field of secretFields) {
      const value = stored.credentials[field];
      if (typeof value === 'string' && value !== '') record[field] = value;
    }
    try {
      const meta = JSON.parse(stored.credentials.oauth ?? '{}') as unknown;
      if (typeof meta === 'object' && meta !== null) record.meta = meta as OAuthRecordMeta;
    } catch {
      // An unreadable record counts as none: the person signs in again.
    }
    // Nothing of a record made for another origin is loaded — tokens, refresh token, registered
    // client — so neither the new server nor the authorization server it names can receive any of it.
    const mismatch = oauthOriginMismatch(this.server.name, this.server.url, record.meta.origin);
    if (mismatch !== undefined) {
      // For the server now configured there is no sign-in at all: `not_configured`, not a refusal
      // (nobody revoked anything), with the sentence saying why and the command that fixes it.
      this.movedAway = mismatch;
      this.rejection = undefined;
      return;
    }
    this.record = record;
  }

  /** Drops the loaded tokens from memory only: a sign-in replaces them once it succeeds. */
  forgetTokens(): void {
    delete this.record.access_token;
    delete this.record.refresh_token;
    delete this.record.meta.tokens;
  }

  /** Whether the subject holds an access token for this server. */
  get hasTokens(): boolean {
    return this.record.access_token !== undefined;
  }

  /** Why the stored authorization was refused, when it was (and no sign-in replaced it since). */
  get rejectionReason(): string | undefined {
    return this.rejection;
  }

  /** The secret values in use, for redaction: a server that echoes a token gets it removed. */
  secretValues(): string[] {
    const values = [this.record.access_token, this.record.refresh_token, this.record.client_secret];
    if (this.server.oauth?.clientSecret) values.push(this.server.oauth.clientSecret);
    return values.filter((value): value is string => value !== undefined && value.length >= 4);
  }

  get clientMetadataUrl(): string | undefined {
    return this.server.oauth?.clientMetadataUrl;
  }

  get redirectUrl(): string {
    // A running agent never redirects, but the SDK takes a missing redirect URL to mean the
    // client-credentials grant; the URI of the last sign-in keeps refreshes on the code grant.
    return this.interactive?.redirectUrl ?? this.record.meta.redirect_uri ?? 'http://127.0.0.1/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.server.oauth?.scopes;
    return {
      client_name: 'Patchbay',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.server.oauth?.clientSecret ? 'client_secret_post' : 'none',
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  state(): string {
    if (!this.interactive) throw this.notSignedIn();
    return this.interactive.state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const configured = this.server.oauth;
    if (configured?.clientId) {
      return {
        client_id: configured.clientId,
        ...(configured.clientSecret ? { client_secret: configured.clientSecret } : {}),
      };
    }
    const client = this.record.meta.client;
    if (!client || typeof client.client_id !== 'string') return undefined;
    // A client registered for another redirect URI (a sign-in on another port) is registered anew.
    if (this.interactive && this.record.meta.redirect_uri !== this.interactive.redirectUrl) return undefined;
    return {
      ...(client as OAuthClientInformationMixed),
      ...(this.record.client_secret ? { client_secret: this.record.client_secret } : {}),
    };
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    const { client_secret: clientSecret, ...rest } = information as OAuthClientInformationMixed & {
      client_secret?: string;
    };
    if (this.server.oauth?.clientId) return;
    this.record.meta.client = rest;
    this.record.meta.redirect_uri = this.redirectUrl;
    if (clientSecret) this.record.client_secret = clientSecret;
    else delete this.record.client_secret;
    if (this.interactive) await this.persist();
  }

  tokens(): OAuthTokens | undefined {
    const { access_token: accessToken, refresh_token: refreshToken } = this.record;
    if (!accessToken) return undefined;
    const { expires_at: expiresAt, ...rest } = this.record.meta.tokens ?? {};
    return {
      ...(rest as Omit<OAuthTokens, 'access_token'>),
      token_type: typeof rest.token_type === 'string' ? rest.token_type : 'Bearer',
      access_token: accessToken,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      ...(typeof expiresAt === 'number'
        ? { expires_in: Math.max(0, Math.floor((expiresAt - Date.now()) / 1000)) }
        : {}),
    };
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, ...rest } = tokens;
    // A refresh answer may leave the refresh token out: the old one stays valid (RFC 6749 §6).
    const keptRefresh = refreshToken ?? this.record.refresh_token;
    this.record.access_token = accessToken;
    if (keptRefresh) this.record.refresh_token = keptRefresh;
    this.record.meta.tokens = {
      ...rest,
      ...(typeof expiresIn === 'number' ? { expires_at: Date.now() + expiresIn * 1000 } : {}),
    };
    // The sign-in is complete: its verifier and state are spent.
    delete this.record.code_verifier;
    delete this.record.state;
    this.rejection = undefined;
    await this.persist();
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.interactive) {
      // Only reached with tokens the server no longer accepts and no refresh that works.
      await this.recordRejection();
      throw this.notSignedIn();
    }
    this.interactive.onAuthorizationUrl(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (!this.interactive) return;
    this.record.code_verifier = codeVerifier;
    this.record.state = this.interactive.state;
    await this.persist();
  }

  codeVerifier(): string {
    if (!this.record.code_verifier) {
      throw new PatchbayError(
        'mcp_authorization_failed',
        `No sign-in to the MCP server "${this.server.name}" is pending.`,
      );
    }
    return this.record.code_verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'discovery') {
      this.discovery = undefined;
      return;
    }
    if (scope === 'verifier') {
      delete this.record.code_verifier;
      return;
    }
    if (scope === 'all' || scope === 'client') {
      delete this.record.meta.client;
      delete this.record.client_secret;
    }
    if (scope === 'all' || scope === 'tokens') {
      const had = this.record.access_token !== undefined || this.record.refresh_token !== undefined;
      delete this.record.access_token;
      delete this.record.refresh_token;
      delete this.record.meta.tokens;
      if (had && !this.interactive) await this.recordRejection();
    }
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    // A running agent without tokens would otherwise register a client and start a sign-in nobody sees.
    if (!this.interactive && !this.hasTokens) throw this.notSignedIn();
    return this.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  /** The error a running agent throws where a person would have to sign in. */
  notSignedIn(): PatchbayError {
    const command = setupCommandFor(this.server.name);
    if (this.movedAway !== undefined && !this.interactive) {
      return new PatchbayError('mcp_authorization_required', this.movedAway);
    }
    if (this.rejected || this.rejection !== undefined) {
      return new PatchbayError(
        'mcp_authorization_rejected',
        `The MCP server "${this.server.name}" refused the stored sign-in (revoked or expired); run "${command}" again.`,
      );
    }
    return new PatchbayError(
      'mcp_authorization_required',
      `The MCP server "${this.server.name}" needs a sign-in; run "${command}".`,
    );
  }

  private async recordRejection(): Promise<void> {
    this.rejected = true;
    // The record belongs to the server it was made for: restoring the old url restores the sign-in.
    if (this.movedAway !== undefined) return;
    this.rejection = 'The authorization server refused the stored sign-in (revoked or expired).';
    delete this.record.access_token;
    delete this.record.refresh_token;
    delete this.record.meta.tokens;
    await this.persist();
    await this.options.store.recordFailedVerification(this.options.subject, this.server.name, this.rejection);
  }

  private async persist(): Promise<void> {
    // A running agent never overwrites a record it refused to use (a sign-in replaces it).
    if (this.movedAway !== undefined && !this.interactive) return;
    this.record.meta.origin = new URL(this.server.url).origin;
    const credentials: Record<string, string> = { oauth: JSON.stringify(this.record.meta) };
    for (const field of secretFields) {
      const value = this.record[field];
      if (value !== undefined) credentials[field] = value;
    }
    const scope = this.record.meta.tokens?.scope;
    await this.options.store.saveConnection(this.options.subject, {
      connectorId: this.server.name,
      credentials,
      scopes: typeof scope === 'string' ? scope.split(' ').filter((item) => item !== '') : [],
      secretFields,
      verifiedOrigin: this.record.meta.origin,
    });
  }
}

/** True for the errors {@link StoredOAuthProvider} throws instead of starting a sign-in. */
export function isAuthorizationError(error: unknown): error is PatchbayError {
  return (
    PatchbayError.isInstance(error) &&
    (error.code === 'mcp_authorization_required' || error.code === 'mcp_authorization_rejected')
  );
}
