export { patchbayApplicationId } from './database-file.js';
export { acceptedDatabaseUrls, type DatabaseLocation, databaseLocation } from './database-url.js';
export {
  type Keyring,
  type KeyringKey,
  keyFrom,
  keyId,
  newSecretKeyEnv,
  previousSecretKeysEnv,
  type RotateSecretKeyOptions,
  type RotationReport,
} from './keyring.js';
export { memoryLimits } from './memory-sealing.js';
export { type Migration, migrate, migrations } from './migrations.js';
export type { AsyncCommit } from './open-postgres-store.js';
export { databaseUrlEnv, defaultHome, type OpenStoreOptions, openStore } from './open-store.js';
export type { AuditCommit } from './postgres-audit-log.js';
export {
  allowInsecureKeyFileEnv,
  findSecretKey,
  parseSecretKey,
  type ResolvedSecretKey,
  type ResolveSecretKeyOptions,
  resolveSecretKey,
  secretKeyEnv,
  secretKeyFileName,
  secretKeyLength,
} from './secret-key.js';
export { SqliteMemoryStore } from './sqlite-memory-store.js';
export { SqliteStore } from './sqlite-store.js';
export { SqliteThreadStore } from './sqlite-thread-store.js';
export type {
  AuditLog,
  AuditRecord,
  ConnectionSummary,
  ForgettingMemoryStore,
  PatchbayStore,
  PatchbayThreadStore,
  PolicyRule,
  ReplyAuditRecord,
  SaveConnectionInput,
} from './store.js';
