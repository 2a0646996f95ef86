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
