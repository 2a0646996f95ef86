import { PatchbayError } from '@patchbay/envelope';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks the `baseUrl` setting once, when the connector is created: an http(s) URL, https unless
 * it points at this machine (the Basic auth header must not travel in clear text). Returns it
 * without a trailing slash, or `undefined` when no site is set.
 */
export function jiraSiteUrl(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined || baseUrl.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new PatchbayError(
      'invalid_settings',
      `createJira: baseUrl must be the site address, e.g. https://acme.atlassian.net (got "${baseUrl}")`,
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) {
    throw new PatchbayError(
      'invalid_settings',
      'createJira: baseUrl must use https (the API token would otherwise travel in clear text)',
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The failure when the connector was created without a site: the application must name one. */
export function missingSite(): PatchbayError {
  return new PatchbayError(
    'connector_not_configured',
    'Jira needs the address of the site: create the connector with createJira({ baseUrl: "https://<site>.atlassian.net" }) or set settings.jira.baseUrl in patchbay.config.json.',
  );
}

/** The address a person opens to see an issue, or `undefined` behind the API gateway (no browse pages there). */
export function jiraBrowseUrl(base: string, key: string): string | undefined {
  if (new URL(base).hostname === 'api.atlassian.com') return undefined;
  return `${base}/browse/${encodeURIComponent(key)}`;
}
