import { type Credentials, type VerifyResult, verifyFailure } from '@patchbay/connector';
import { HttpError } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';

/**
 * Whether a failed `GET /user` is GitHub refusing an installation token rather than a bad token.
 * GitHub App installation tokens (`ghs_…`) act as the app, not a user, so GitHub answers 403
 * "Resource not accessible by integration" to `GET /user`: the token is fine, the endpoint is not
 * theirs.
 */
export function isInstallationRefusal(error: unknown, token: string | undefined): boolean {
  if (!HttpError.isHttpError(error) || error.status !== 403) return false;
  if (error.headers.get('x-ratelimit-remaining') === '0' || error.headers.has('retry-after')) return false;
  const message = (error.body as { message?: unknown } | undefined)?.message;
  return (
    (typeof message === 'string' && /not accessible by integration/i.test(message)) ||
    (token?.startsWith('ghs_') ?? false)
  );
}

interface InstallationRepositories {
  total_count?: number;
  repositories?: { full_name?: string; owner?: { login?: string } }[];
}

/**
 * Verifies a GitHub App installation token with `GET /installation/repositories`, the endpoint
 * GitHub documents for exactly these tokens. GitHub gives an installation token no way to read
 * its own permissions (that needs the app's JWT), so the declared scopes are reported, as for
 * fine-grained tokens, and each call's 403 names the permission it lacks
 * (`X-Accepted-GitHub-Permissions`). The identity names the account the app is installed on.
 */
export async function verifyInstallation(
  client: HttpClient,
  credentials: Credentials,
  declaredScopes: string[],
  signal: AbortSignal | undefined,
): Promise<VerifyResult> {
  try {
    const { data } = await client.request<InstallationRepositories>(credentials, {
      path: '/installation/repositories',
      query: { per_page: 1 },
      signal,
    });
    const owner = data?.repositories?.[0]?.owner?.login;
    const count = data?.total_count;
    const repositories =
      count === undefined ? '' : ` (${count} ${count === 1 ? 'repository' : 'repositories'})`;
    return {
      valid: true,
      scopes: declaredScopes,
      identity: `GitHub App installation${owner ? ` on ${owner}` : ''}${repositories}`,
    };
  } catch (error) {
    return verifyFailure(error);
  }
}
