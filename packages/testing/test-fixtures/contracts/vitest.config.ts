import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import shared from '../../../../vitest.shared.ts';

/**
 * Runs the contract suites against the reference and the deliberately broken port implementations
 * under test-fixtures/contracts/; only the child process started by
 * src/contracts-catch-broken.test.ts uses it, so their failures never fail the package's run.
 */
export default defineConfig({
  ...shared,
  root: resolve(import.meta.dirname, '../..'),
  // Its own cache, so the child run never writes files the parent run (or the other child) reads.
  cacheDir: resolve(import.meta.dirname, '../../node_modules/.vite-contract-fixtures'),
  test: { ...shared.test, include: ['test-fixtures/contracts/*.fixture.ts'] },
});
