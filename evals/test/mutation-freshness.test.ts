// The freshness check of a committed mutation score: a scored file whose text changed since the run
// is named stale, an unchanged one is not, and the recorded commit is read back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staleFiles } from '../scripts/mutation-freshness.mjs';

const directory = mkdtempSync(join(tmpdir(), 'patchbay-mutation-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
writeFileSync(
  join(directory, 'mutation.json'),
  JSON.stringify({
    files: {
      'packages/turn/src/turn-loop.ts': { source: 'export const a = 1;\n', mutants: [] },
      'packages/orchestrator/src/call-pipeline.ts': { source: 'export const b = 2;\n', mutants: [] },
    },
  }),
);
writeFileSync(join(directory, 'measured.json'), JSON.stringify({ commit: 'abc1234' }));

describe('mutation score freshness', () => {
  it('names the scored files whose text changed since the run, and only those', () => {
    const now: Record<string, string | undefined> = {
      'packages/turn/src/turn-loop.ts': 'export const a = 1;\n',
      'packages/orchestrator/src/call-pipeline.ts': 'export const b = 3;\n',
    };
    const result = staleFiles(directory, (path: string) => now[path]);
    expect(result).toEqual({
      commit: 'abc1234',
      files: ['packages/turn/src/turn-loop.ts', 'packages/orchestrator/src/call-pipeline.ts'],
      stale: ['packages/orchestrator/src/call-pipeline.ts'],
    });
  });

  it('counts a scored file that is gone as stale', () => {
    expect(staleFiles(directory, () => undefined).stale).toHaveLength(2);
  });
});
