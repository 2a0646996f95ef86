import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import shared from '../../../vitest.shared.ts';

/**
 * Runs the deliberately broken connectors under test-fixtures/; only the child process started by
 * src/conformance-catches-broken.test.ts uses it, so their failures never fail the package's run.
 */
export default defineConfig({
  ...shared,
  root: resolve(import.meta.dirname, '..'),
  // Its own cache, so the child run never writes files the parent run is reading.
  cacheDir: resolve(import.meta.dirname, '../node_modules/.vite-fixtures'),
  test: { ...shared.test, include: ['test-fixtures/*.fixture.ts'] },
});
