import type { Credentials } from '@patchbay/connector';
import { PatchbayError } from '@patchbay/envelope';

// A bare site name ("acme") or a host name ("acme.atlassian.net", "jira.acme.com").
const hostPattern = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;

function missingSite(): PatchbayError {
  return new PatchbayError(
    'invalid_credentials',
    'The Jira connection has no site. Reconnect and give the site, e.g. acme or https://acme.atlassian.net.',
  );
}

/**
 * The Jira base URL for one call: the `baseUrl` setting when the application pins one (a proxy,
 * the `api.atlassian.com/ex/jira/<cloudId>` gateway), else the user's `site` credential. A bare
 * name becomes `https://<name>.atlassian.net`; plain `http` is refused because the Basic auth
 * header would travel in clear text.
 */
export function jiraBaseUrl(baseUrl: string | undefined, credentials: Credentials): string {
  if (baseUrl !== undefined && baseUrl.trim() !== '') return baseUrl.trim().replace(/\/+$/, '');
  const site = credentials.site?.trim();
  if (!site) throw missingSite();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(site)) {
    let url: URL;
    try {
      url = new URL(site);
    } catch {
      throw missingSite();
    }
    if (url.protocol !== 'https:') {
      throw new PatchbayError(
        'invalid_credentials',
        'The Jira site must be an https:// address; reconnect with the https address of the site.',
      );
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }
  const host = site.replace(/\/+$/, '');
  if (!hostPattern.test(host)) throw missingSite();
  return host.includes('.') ? `https://${host.toLowerCase()}` : `https://${host.toLowerCase()}.atlassian.net`;
}

/** The address a person opens to see an issue, or `undefined` behind the API gateway (no browse pages there). */
export function jiraBrowseUrl(base: string, key: string): string | undefined {
  if (new URL(base).hostname === 'api.atlassian.com') return undefined;
  return `${base}/browse/${encodeURIComponent(key)}`;
}
