import { parseGithubScopes } from './github-scopes.js';

// How much each classic scope grants, lowest first: among alternatives a refusal accepts, the
// user is told to grant the least powerful one: read, sub-scopes, write, whole areas, admin, delete.
function scopeRank(scope: string): number {
  if (scope === 'delete_repo') return 6;
  if (scope.startsWith('admin:')) return 5;
  if (scope.startsWith('read:')) return 0;
  if (scope === 'public_repo' || scope.includes(':')) return 1;
  if (scope.startsWith('write:')) return 2;
  return 3;
}

function splitList(value: string, separator: RegExp): string[] {
  return value
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * What a 403 with `X-Accepted-OAuth-Scopes` means for a classic token. The header lists
 * alternatives — any one of them is enough — so:
 * - `satisfied`: the token already holds one of them (with the scopes its grants imply), so the
 *   refusal is about something else (repository access, SSO, an organisation policy);
 * - `missing`: the single least powerful accepted scope no granted scope already covers, so the
 *   user is never told to grant `delete_repo` to comment on an issue.
 */
export function missingOauthScope(
  acceptedHeader: string | null,
  grantedHeader: string | null,
): { satisfied: true } | { satisfied: false; missing: string } | undefined {
  if (acceptedHeader === null) return undefined;
  const accepted = splitList(acceptedHeader, /,/);
  if (accepted.length === 0) return undefined;
  const granted = new Set(parseGithubScopes(grantedHeader ?? ''));
  if (accepted.some((scope) => granted.has(scope))) return { satisfied: true };
  // A scope that another accepted scope implies is the smaller grant (`public_repo` under `repo`).
  const minimal = accepted.filter(
    (scope) => !accepted.some((other) => other !== scope && parseGithubScopes(scope).includes(other)),
  );
  const [smallest] = [...minimal].sort((a, b) => scopeRank(a) - scopeRank(b) || a.localeCompare(b));
  return smallest === undefined ? undefined : { satisfied: false, missing: smallest };
}

/**
 * The permissions a fine-grained token or GitHub App needs, from `X-Accepted-GitHub-Permissions`
 * (`issues=write`, or sets separated by `;` — any one set is enough, every permission of a set is
 * needed). Returns the smallest set, as `name=level` strings, or `undefined` when the header is absent.
 */
export function missingGithubPermissions(header: string | null): string[] | undefined {
  if (header === null) return undefined;
  const sets = splitList(header, /;/)
    .map((set) => splitList(set, /,/).filter((permission) => /^[a-z_]+=[a-z]+$/i.test(permission)))
    .filter((set) => set.length > 0);
  if (sets.length === 0) return undefined;
  const levelRank = (permission: string) =>
    /=read$/i.test(permission) ? 0 : /=write$/i.test(permission) ? 1 : 2;
  const weight = (set: string[]) => set.reduce((sum, permission) => sum + 3 + levelRank(permission), 0);
  return [...sets].sort((a, b) => weight(a) - weight(b))[0];
}
