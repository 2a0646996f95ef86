import { fileURLToPath } from 'node:url';
import { PatchbayError } from '@patchbay/envelope';
import { isPostgresUrl } from './open-postgres-store.js';

/** Which database a URL names: the Postgres store, or a SQLite file. */
export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'sqlite'; path: string };

// Two characters at least before the colon, so a Windows drive (`C:\data\patchbay.db`) stays a path.
const schemePattern = /^([a-z][a-z0-9+.-]+):/i;

// Schemes a person means as Postgres when they mistype it: the hint is worth a line.
const postgresLookalike = /^(p(ost)?g|psql)/i;

/** The forms `openStore` accepts, named in every refusal. */
export const acceptedDatabaseUrls =
  'postgres://user:password@host:5432/database (or postgresql://) for Postgres; a file path or file:///absolute/path.db for SQLite';

/**
 * Reads a database URL (`url` option or `PATCHBAY_DATABASE_URL`, named by `source` in errors).
 * Any scheme other than `postgres:`, `postgresql:` and `file:` is refused: before this check a
 * misspelt `postgress://…` or a `mysql://…` URL opened a new, empty SQLite file named after it,
 * and every connector read as "not configured" with no error anywhere. The message names the
 * scheme only, never the URL, which may hold a password.
 */
export function databaseLocation(url: string, source: string): DatabaseLocation {
  if (isPostgresUrl(url)) return { kind: 'postgres', url };
  const scheme = schemePattern.exec(url)?.[1];
  if (scheme === undefined) return { kind: 'sqlite', path: url };
  if (scheme.toLowerCase() === 'file') {
    try {
      return { kind: 'sqlite', path: fileURLToPath(url) };
    } catch (error) {
      throw new PatchbayError(
        'invalid_arguments',
        `${source} is a file: URL that names no local file (${(error as Error).message}). Accepted: ${acceptedDatabaseUrls}.`,
        { cause: error },
      );
    }
  }
  const hint = postgresLookalike.test(scheme) ? ' Did you mean postgres://?' : '';
  throw new PatchbayError(
    'invalid_arguments',
    `${source} starts with "${scheme}:", which is not a database Patchbay opens; nothing was opened or created.${hint} Accepted: ${acceptedDatabaseUrls}.`,
  );
}
