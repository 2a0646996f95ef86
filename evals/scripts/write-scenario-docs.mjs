#!/usr/bin/env node
// Rewrites the key tables of evals/README.md ("Scenario format") from the scenario schema, the
// source of truth; test/docs.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withScenarioFormat } from '../lib/scenario-docs.mjs';

const readme = join(new URL('..', import.meta.url).pathname, 'README.md');
const before = readFileSync(readme, 'utf8');
const after = withScenarioFormat(before);
if (after !== before) writeFileSync(readme, after);
console.log(
  after === before ? 'README.md: scenario format up to date' : 'README.md: scenario format rewritten',
);
