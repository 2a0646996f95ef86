import type { ResumeLedger } from '@patchbay/connector/ports';
import type { PostgresHandle } from './postgres-handle.js';
import type { SqliteHandle } from './sqlite-handle.js';

// The port allows ids of at most 100 characters; a longer one is refused rather than stored.
const maxPauseIdLength = 100;

function checkedId(pauseId: string): string {
  if (typeof pauseId !== 'string' || pauseId === '' || pauseId.length > maxPauseIdLength) {
    throw new TypeError(`a pause id is a string of 1 to ${maxPauseIdLength} characters`);
  }
  return pauseId;
}

/** The resume ledger on the SQLite file: a claim is one `INSERT OR IGNORE`, atomic across processes. */
export class SqliteResumeLedger implements ResumeLedger {
  constructor(private readonly handle: SqliteHandle) {}

  async claim(pauseId: string): Promise<boolean> {
    const id = checkedId(pauseId);
    return this.handle.guard(
      () =>
        Number(
          this.handle
            .prepare('INSERT OR IGNORE INTO resume_claims (pause_id, claimed_at) VALUES (?, ?)')
            .run(id, new Date().toISOString()).changes,
        ) === 1,
    );
  }
}

/** The resume ledger on Postgres: a claim is one `INSERT … ON CONFLICT DO NOTHING`, one round trip. */
export class PostgresResumeLedger implements ResumeLedger {
  constructor(private readonly handle: PostgresHandle) {}

  async claim(pauseId: string): Promise<boolean> {
    const id = checkedId(pauseId);
    const result = await this.handle.query(
      'INSERT INTO resume_claims (pause_id) VALUES ($1) ON CONFLICT (pause_id) DO NOTHING',
      [id],
      'patchbay_resume_claim',
    );
    return result.rowCount === 1;
  }
}
