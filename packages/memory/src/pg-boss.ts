// `@patchbay/memory/pg-boss`: the background memory queue on Postgres. A subpath of its own so that
// pg-boss (an optional peer dependency) is loaded only by apps that use it.
export { createPgBossMemoryQueue, type PgBossMemoryQueueOptions } from './pg-boss/pg-boss-memory-queue.js';
