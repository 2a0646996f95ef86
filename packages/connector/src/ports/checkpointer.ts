/**
 * Where a conversation's checkpoint (any JSON value, e.g. a paused chain or an agent's working
 * memory) is kept between turns, one per thread id. `@patchbay/store` implements it on SQLite.
 */
export interface Checkpointer {
  /** Saves a checkpoint under a thread id, replacing the previous one. */
  saveCheckpoint(threadId: string, value: unknown): Promise<void>;
  /** The last checkpoint of a thread, or undefined. */
  loadCheckpoint<T = unknown>(threadId: string): Promise<T | undefined>;
  /** Deletes a thread's checkpoint. */
  deleteCheckpoint(threadId: string): Promise<void>;
}
