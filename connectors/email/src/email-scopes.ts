import type { Scope } from '@patchbay/connector';

/**
 * Resend API keys carry one permission, `full_access` or `sending_access` (optionally limited to
 * one domain). These scopes name what each permission allows, so a sending-only key exposes only
 * the sending tools.
 */
export const emailScopes = {
  send: 'emails:send',
  read: 'emails:read',
  domains: 'domains:read',
} as const;

/** The scopes of the email connector as the manifest declares them. */
export const emailScopeDeclarations: Scope[] = [
  { name: emailScopes.send, description: 'Send emails (any Resend API key)' },
  { name: emailScopes.read, description: 'Read sent emails and their delivery status (full-access key)' },
  { name: emailScopes.domains, description: 'List sending domains and their verification (full-access key)' },
];

/** Scopes a `full_access` key grants. */
export const fullAccessScopes: string[] = [emailScopes.send, emailScopes.read, emailScopes.domains];

/** Scopes a `sending_access` key grants. */
export const sendingAccessScopes: string[] = [emailScopes.send];
