// The status a scenario gives a connector, and the answers of the fake service's routes.
import { connectorStatuses } from '@patchbay/connector';
import { z } from 'zod';
import { documented, listOf, routeKey } from './documented.js';

/** The status a scenario gives a connector: a bare status, or an object with its details. */
export const connectorStateSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { status: value } : value),
  z.strictObject({
    status: documented(
      z.enum(connectorStatuses),
      connectorStatuses.map((status) => `\`${status}\``).join(', '),
      'The connector status for the scenario’s user. A bare status (`github: connected`) is short for `{ status: … }`.',
    ),
    scopes: listOf(
      z.string(),
      'list of scope names',
      'Only with `connected`: the scopes granted (default: every scope the connector declares).',
    ),
    error: documented(
      z.string().optional(),
      'text',
      'Only with `invalid_credentials`: the error the credential check reported.',
    ),
    retry_after_s: documented(
      z.number().int().positive().optional(),
      'seconds',
      'Only with `rate_limited`: when the limit lifts, counted from the turn’s `at` (default 600).',
    ),
    verified_origin: documented(
      z.url().optional(),
      'URL',
      'Only with `connected`: the origin the stored connection was verified against (default: the connector’s configured origin). Another one is a connection made while the connector pointed elsewhere: the product must withhold its credentials (origin binding).',
    ),
  }),
);

/** A map of connector id → connector state (`connectors`, `set`). */
export const connectorStates = (description: string) =>
  documented(
    z.record(z.string(), connectorStateSchema).optional(),
    'map of connector id → connector state',
    description,
  );

/** A route's answer: a fixture response name, or one with arguments. */
export const routeResponseSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { response: value } : value),
  z.strictObject({
    response: documented(
      z.string(),
      'response name',
      'A response of the config’s `service` (in the Patchbay repository: the connector packages’ fixtures, e.g. `github.issue`). A bare name is short for `{ response: … }`.',
    ),
    retry_after_s: documented(
      z.number().int().positive().optional(),
      'seconds',
      'For `*.rate_limited`: the `Retry-After` the service sends (default 30).',
    ),
  }),
);

/** A map of "METHOD url" → response (`http`). */
export const routes = (description: string) =>
  documented(
    z
      .record(z.string().regex(routeKey, 'a route reads "METHOD https://host/path"'), routeResponseSchema)
      .optional(),
    'map of "METHOD url" → response',
    description,
  );
