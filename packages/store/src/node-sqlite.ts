import type * as NodeSqlite from 'node:sqlite';
import { PatchbayError } from '@patchbay/envelope';

/** The Node versions the store runs on: `engines.node` of this package. */
export const supportedNodeRange = '^22.22.2 || ^24.15.0 || >=26.0.0';

let loaded: typeof NodeSqlite | undefined;

/**
 * `node:sqlite`, loaded when a SQLite store is first opened rather than imported at the top of the
 * module: on Node 20 a static import fails the whole package at load with Node's bare
 * `ERR_UNKNOWN_BUILTIN_MODULE`, before any of our code can say what is needed. This says it instead,
 * with the version in use. `process.getBuiltinModule` is missing before Node 20.16; that counts as
 * "too old" too.
 */
export function nodeSqlite(): typeof NodeSqlite {
  loaded ??= process.getBuiltinModule?.('node:sqlite') as typeof NodeSqlite | undefined;
  if (!loaded) {
    throw new PatchbayError(
      'store_error',
      `@patchbay/store needs Node.js ${supportedNodeRange} for its SQLite database (node:sqlite); this is Node.js ${process.versions.node}. ` +
        'Install Node 24 (bash scripts/setup.sh in the Patchbay repository does it), or use a postgres:// database URL on a supported Node.',
    );
  }
  return loaded;
}
