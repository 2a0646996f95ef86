import type { Scope } from '@patchbay/connector';

/** The bot-token scopes this connector's tools use, with what each grants. */
export const slackScopes: Scope[] = [
  { name: 'channels:read', description: 'See the public channels of the workspace' },
  { name: 'channels:history', description: 'Read messages in public channels the app is a member of' },
  { name: 'chat:write', description: 'Post messages as the app, and delete the messages it posted' },
  // Slack grants users:read.email only together with users:read, and lookupByEmail needs both.
  { name: 'users:read', description: 'See the people in the workspace' },
  { name: 'users:read.email', description: 'Look up people in the workspace by email address' },
  { name: 'groups:read', description: 'See private channels the app was invited to (optional)' },
  {
    name: 'groups:history',
    description: 'Read messages in private channels the app was invited to (optional)',
  },
];

/** Parses Slack's comma-separated `x-oauth-scopes` header into a sorted list. */
export function parseSlackScopes(header: string): string[] {
  return [
    ...new Set(
      header
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean),
    ),
  ].sort();
}

/**
 * The channel kinds a token can reach for one Slack method family, from its scopes: Slack accepts
 * `channels:*` for public channels and `groups:*` for private ones, either one enough. Tools that
 * read channels are exposed to a token with either (an all-of `requiredScopes` would hide them
 * from a private-channels-only app) and check here before any request leaves.
 */
export function channelAccess(
  scopes: readonly string[],
  kind: 'read' | 'history',
): { public: boolean; private: boolean } {
  const granted = new Set(scopes);
  return { public: granted.has(`channels:${kind}`), private: granted.has(`groups:${kind}`) };
}
