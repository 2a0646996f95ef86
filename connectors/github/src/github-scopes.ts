import type { Scope } from '@patchbay/connector';

/** The classic-token scopes this connector's tools use, with what each grants. */
export const githubScopes: Scope[] = [
  {
    name: 'repo',
    description: 'Full access to public and private repositories, including their issues and pull requests',
    implies: ['public_repo'],
  },
  {
    name: 'public_repo',
    description: 'Write access to public repositories: open, comment on and close issues',
  },
];

// Classic scopes nest: a token granted the parent can do everything the children allow, but
// `X-OAuth-Scopes` lists only the parent. From GitHub's "Scopes for OAuth apps" table.
const impliedScopes: Readonly<Record<string, readonly string[]>> = {
  repo: ['repo:status', 'repo_deployment', 'public_repo', 'repo:invite', 'security_events'],
  'admin:org': ['write:org', 'read:org', 'manage_runners:org'],
  'write:org': ['read:org'],
  'admin:public_key': ['write:public_key', 'read:public_key'],
  'write:public_key': ['read:public_key'],
  'admin:repo_hook': ['write:repo_hook', 'read:repo_hook'],
  'write:repo_hook': ['read:repo_hook'],
  'admin:gpg_key': ['write:gpg_key', 'read:gpg_key'],
  'write:gpg_key': ['read:gpg_key'],
  user: ['read:user', 'user:email', 'user:follow'],
  'write:packages': ['read:packages'],
  'admin:enterprise': ['manage_runners:enterprise', 'manage_billing:enterprise', 'read:enterprise'],
  project: ['read:project'],
};

/**
 * Parses an `X-OAuth-Scopes` header ("repo, read:org") into granted scopes, adding the scopes each
 * one implies, so a `repo` token passes a tool that requires `public_repo`. Sorted, no duplicates.
 */
export function parseGithubScopes(header: string): string[] {
  const granted = new Set<string>();
  const add = (scope: string) => {
    if (granted.has(scope)) return;
    granted.add(scope);
    for (const implied of impliedScopes[scope] ?? []) add(implied);
  };
  for (const scope of header.split(',')) {
    const trimmed = scope.trim();
    if (trimmed) add(trimmed);
  }
  return [...granted].sort();
}
