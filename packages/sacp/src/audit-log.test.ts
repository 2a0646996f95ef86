import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEntry, AuditSink } from '@patchbay/connector/ports';
import { describeAuditSinkContract } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createJsonlAuditLog } from './audit-log.js';

/** Every JSON line of a log file, in file order; none when nothing was written yet. */
async function lines(path: string): Promise<AuditEntry[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEntry);
}

describeAuditSinkContract('JSON Lines file', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'patchbay-audit-'));
  const log = createJsonlAuditLog(join(directory, 'nested', 'audit.jsonl'));
  return {
    sink: log,
    entries: async () => {
      await log.flush();
      return lines(log.path);
    },
    close: () => rm(directory, { recursive: true, force: true }),
  };
});

describe('createJsonlAuditLog', () => {
  it('is an AuditSink of @patchbay/connector, and keeps chain records and entries in one order', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-audit-'));
    try {
      const log = createJsonlAuditLog(join(directory, 'audit.jsonl'));
      const sink: AuditSink = log;
      await sink.append({ event: 'chain_started', at: '2026-11-21T15:00:00.000Z' });
      void log.write({
        timestamp: '2026-11-21T15:00:01.000Z',
        correlation_id: 'corr-1',
        node: 'research',
        step: 1,
        status: 'success',
        ok: true,
        repairs: [],
        reasks: 0,
        guardrails: [],
        thought: '',
        message: 'Found it.',
        data_keys: [],
      });
      void sink.append({ event: 'chain_finished', at: '2026-11-21T15:00:02.000Z' });
      await log.flush();
      expect((await lines(log.path)).map((line) => line.event ?? line.node)).toEqual([
        'chain_started',
        'research',
        'chain_finished',
      ]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
