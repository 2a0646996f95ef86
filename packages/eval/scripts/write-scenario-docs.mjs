#!/usr/bin/env node
// Rewrites the scenario-format tables of packages/eval/README.md from the schema, the source of truth;
// src/docs.test.ts fails when they differ. (`pnpm --filter @patchbay/eval docs`, after a build.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withScenarioFormat } from '../dist/index.js';

const readme = join(import.meta.dirname, '..', 'README.md');
const before = readFileSync(readme, 'utf8');
const after = withScenarioFormat(before);
if (after !== before) writeFileSync(readme, after);
console.log(
  after === before ? 'README.md: scenario format up to date' : 'README.md: scenario format rewritten',
);
