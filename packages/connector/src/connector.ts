import type { AuthDeclaration, Credentials, Scope, VerifyOptions, VerifyResult } from './credentials.js';
import type { AnyTool } from './tool.js';

/** A connector as its author writes it, before validation. */
export interface ConnectorDefinition {
  /** Lowercase letters and digits; prefixes every tool name. */
  id: string;
  /** Display name, e.g. "GitHub". */
  name: string;
  /** One sentence on what the service is. */
  description: string;
  auth: AuthDeclaration;
  /** What the connector lets an agent do, as short phrases ("create issues"). */
  capabilities: string[];
  /** What setting it up would enable, phrased for a user ("Open and triage GitHub issues from chat"). */
  wouldEnable: string[];
  /** Where a user goes to connect it. */
  setupUrl: string;
  /** Optional documentation link. */
  docsUrl?: string;
  tools: AnyTool[];
  /**
   * Origin (`scheme://host[:port]`) the connector sends credentials to, as configured (an HTTP
   * client's `origin`). Declared, it binds stored connections: one verified against another origin
   * is `invalid_credentials` until connected again, so a changed `baseUrl` never receives them.
   */
  origin?: string;
  /**
   * Origin the connector uses without settings (an HTTP client's `defaultOrigin`): what a connection
   * stored before Patchbay recorded verified origins is taken to have been verified against.
   */
  defaultOrigin?: string;
  /** Checks credentials against the service's cheapest identity endpoint. Must not throw. */
  verify: (credentials: Credentials, options?: VerifyOptions) => Promise<VerifyResult>;
}

/** A validated connector: what plugins implement, version `v1` of the contract. */
export interface Connector extends Readonly<Omit<ConnectorDefinition, 'auth'>> {
  readonly specificationVersion: 'v1';
  readonly auth: {
    kind: AuthDeclaration['kind'];
    scopes: Scope[];
    fields: { name: string; description: string; secret: boolean; env?: string; optional?: boolean }[];
  };
}

/** The static, serialisable part of a connector (no functions, no schemas). */
export interface ConnectorManifest {
  specificationVersion: 'v1';
  id: string;
  name: string;
  description: string;
  auth: Connector['auth'];
  capabilities: string[];
  wouldEnable: string[];
  setupUrl: string;
  docsUrl?: string;
  tools: {
    name: string;
    description: string;
    effect: AnyTool['effect'];
    requiredScopes: string[];
    requires: string[];
    inputJsonSchema: Record<string, unknown>;
  }[];
}

/** Settings every connector factory accepts (after vercel/ai's provider settings). */
export interface ConnectorSettings {
  /** API base URL: GitHub Enterprise, a Jira site, a proxy. */
  baseUrl?: string;
  /** Custom fetch (tests, proxies, tracing). Resolved at call time, so msw and late patches apply. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Accept a plain `http://` base URL on a host that is not loopback. Off by default: credentials
   * would travel in clear text. Loopback hosts (127.0.0.0/8, `::1`, `localhost`) never need it.
   */
  allowInsecureHttp?: boolean;
}

/**
 * What a connector package declares as `connectorFactory`: its factory, called with the user's
 * settings. The CLI finds a connector through this export and calls nothing else.
 */
export type ConnectorFactory<Settings extends ConnectorSettings = ConnectorSettings> = (
  settings?: Settings,
) => Connector;
