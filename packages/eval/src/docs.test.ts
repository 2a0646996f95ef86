import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectChecks } from './checks/index.js';
import { expectSchema, withScenarioFormat } from './scenario-format/index.js';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

describe('the README says what the code does', () => {
  it('the scenario-format tables are the ones the schema generates', () => {
    // On failure: pnpm --filter @patchbay/eval build && pnpm --filter @patchbay/eval docs
    expect(readme).toBe(withScenarioFormat(readme));
  });

  it('every check key of the schema has its check in the table, and the table checks no other', () => {
    // A key in the schema that no check reads would validate and then check nothing.
    expect(Object.keys(expectChecks).sort()).toEqual(Object.keys(expectSchema.shape).sort());
  });
});
