import { HttpError } from '@patchbay/envelope';
import { missingGithubPermissions, missingOauthScope } from './github-permissions.js';

// GitHub's guidance for a secondary rate limit that names no wait: "wait for at least one minute".
const secondaryRateLimitWaitS = 60;

/**
 * GitHub reports a secondary rate limit as 403 or 429 with a message and, sometimes, no header that
 * says how long to wait. Adds GitHub's documented one-minute wait so the envelope carries a
 * `retry_after_s` the orchestrator can act on.
 */
function withGithubWait(error: HttpError): HttpError {
  if (error.status !== 403 && error.status !== 429) return error;
  const headers = error.headers;
  if (headers.has('retry-after') || headers.get('x-ratelimit-remaining') === '0') return error;
  const message = (error.body as { message?: unknown } | undefined)?.message;
  const secondary = typeof message === 'string' && /secondary rate limit|abuse detection/i.test(message);
  if (!secondary && error.status !== 429) return error;
  const patched = new Headers(headers);
  patched.set('retry-after', String(secondaryRateLimitWaitS));
  return new HttpError({
    status: error.status,
    headers: patched,
    body: error.body,
    message: error.message,
    missingScopes: error.missingScopes,
  });
}

interface GithubValidationError {
  resource?: string;
  field?: string;
  code?: string;
  message?: string;
}

/**
 * GitHub's 422 says only "Validation Failed" in `message`; what failed is in `errors`. Folds the
 * field and code into the message so the envelope tells the model which argument to fix.
 */
function withValidationDetail(error: HttpError): HttpError {
  const body = error.body as { message?: unknown; errors?: unknown } | undefined;
  if (error.status !== 422 || !Array.isArray(body?.errors) || body.errors.length === 0) return error;
  const details = (body.errors as (GithubValidationError | string)[])
    .map((item) =>
      typeof item === 'string'
        ? item
        : (item.message ?? [item.field, item.code?.replaceAll('_', ' ')].filter(Boolean).join(' ')),
    )
    .filter(Boolean);
  if (details.length === 0) return error;
  const message = typeof body.message === 'string' ? body.message : 'Validation Failed';
  return new HttpError({
    status: error.status,
    headers: error.headers,
    body: { ...body, message: `${message}: ${details.join('; ')}` },
    message: error.message,
    missingScopes: error.missingScopes,
  });
}

/**
 * GitHub answers 404, not 403, when a token without `repo` asks for a private repository, so its
 * existence does not leak. When the scope header shows that, say so: the fix is a new token.
 */
function withPrivateRepositoryHint(error: HttpError): HttpError {
  const granted = error.headers.get('x-oauth-scopes');
  if (error.status !== 404 || granted === null) return error;
  if (granted.split(',').some((scope) => scope.trim() === 'repo')) return error;
  const body = (typeof error.body === 'object' && error.body !== null ? error.body : {}) as Record<
    string,
    unknown
  >;
  const message = typeof body.message === 'string' ? body.message : 'Not Found';
  return new HttpError({
    status: error.status,
    headers: error.headers,
    body: {
      ...body,
      message: `${message}. If the repository is private, the token needs the repo scope.`,
    },
    message: error.message,
    missingScopes: error.missingScopes,
  });
}

/**
 * A 403 that is about permissions, read the way GitHub means its headers: `X-Accepted-GitHub-Permissions`
 * (fine-grained tokens, GitHub Apps) names the permission to grant, and `X-Accepted-OAuth-Scopes`
 * lists alternatives for classic tokens, any one enough. The shared mapping would report every
 * accepted scope not granted as required, so the header is replaced by the one scope that is
 * missing — or dropped when the token already holds one and the refusal is about something else.
 */
function withMissingPermission(error: HttpError): HttpError {
  if (error.status !== 403 || error.missingScopes?.length) return error;
  const headers = error.headers;
  if (headers.get('x-ratelimit-remaining') === '0' || headers.has('retry-after')) return error;
  const permissions = missingGithubPermissions(headers.get('x-accepted-github-permissions'));
  const scope = missingOauthScope(headers.get('x-accepted-oauth-scopes'), headers.get('x-oauth-scopes'));
  if (permissions === undefined && scope === undefined) return error;
  const patched = new Headers(headers);
  patched.delete('x-accepted-oauth-scopes');
  const missingScopes = permissions ?? (scope?.satisfied === false ? [scope.missing] : undefined);
  return new HttpError({
    status: error.status,
    headers: patched,
    body: error.body,
    message: error.message,
    missingScopes,
  });
}

/**
 * GitHub's error signals beyond the status, for the shared client's `mapError`: the secondary rate
 * limit's documented wait, the permission a 403 names, the field of a 422, and the
 * private-repository hint on a 404.
 */
export function mapGithubError(error: HttpError): HttpError {
  return withPrivateRepositoryHint(withValidationDetail(withMissingPermission(withGithubWait(error))));
}
