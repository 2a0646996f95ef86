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
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
