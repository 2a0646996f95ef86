import { defineConfig } from 'vitest/config';

/**
 * Shared vitest config. Workspace packages resolve to their TypeScript sources through the
 * `@patchbay/source` export condition, so a test never runs against a stale `dist/`.
 */
export default defineConfig({
  resolve: { conditions: ['@patchbay/source', 'import', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['@patchbay/source', 'import', 'module', 'node', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // For in-process tests, which finish in well under a second even on a busy machine. A test that
    // starts processes, compiles or runs a child vitest sets its own limit in its file, sized from
    // what it measured with both cores busy (see e2eTimeoutMs in packages/cli/test-fixtures).
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
