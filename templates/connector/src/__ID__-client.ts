import type { ConnectorSettings } from '@patchbay/connector';
import { createHttpClient, type HttpClient } from '@patchbay/helpers';
import { map__Name__Error } from './__ID__-errors.js';

/** Where the __NAME__ API lives unless `baseUrl` says otherwise. TODO(connector author): the real base URL. */
export const default__Name__BaseUrl = 'https://api.__ID__.example';

/** The HTTP client every __NAME__ tool shares; credentials are applied per request. */
export function create__Name__Client(settings: ConnectorSettings): HttpClient {
  return createHttpClient({
    settings,
    defaultBaseUrl: default__Name__BaseUrl,
    // TODO(connector author): the service's auth header shape.
    authorize: (credentials) => ({ authorization: `Bearer ${credentials.token ?? ''}` }),
    headers: { 'user-agent': 'patchbay-connector-__ID__' },
    mapError: map__Name__Error,
  });
}
