import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withScenarioFormat } from './scenario-docs.mjs';
import { expectSchema } from './scenario-schema.mjs';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

describe('the README says what the code does', () => {
  it('the scenario-format tables are the ones the schema generates', () => {
    // On failure: pnpm --filter @patchbay/eval build && pnpm --filter @patchbay/eval docs
    expect(readme).toBe(withScenarioFormat(readme));
  });

  it('every check key of the schema is read by the checks, and the checks read no other', () => {
    // A key in the schema that no check reads would validate and then check nothing.
    const source = readFileSync(join(import.meta.dirname, 'checks.mjs'), 'utf8');
    const read = new Set([...source.matchAll(/\bexpect\.(\w+)/g)].map((match) => match[1]));
    expect([...read].sort()).toEqual(Object.keys(expectSchema.shape).sort());
  });
});
