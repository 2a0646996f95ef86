/**
 * `@patchbay/store/postgres`: the Postgres store for many processes and machines on one database.
 * Needs the optional peer dependency `pg`; `openStore({ url: 'postgres://…' })` of the main entry
 * reaches the same store.
 */
export {
  type AsyncCommit,
  auditCommitEnv,
  createPostgresStore,
  isPostgresUrl,
  type OpenPostgresStoreOptions,
  openPostgresStore,
} from './open-postgres-store.js';
export type { AuditCommit } from './postgres-audit-log.js';
export { postgresMigrations, statusChannel } from './postgres-schema.js';
export { PostgresStore } from './postgres-store.js';
