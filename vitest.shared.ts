import { defineConfig, type ViteUserConfig } from 'vitest/config';

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

/**
 * The shared config for packages whose tests load `pg` (the Postgres store, pg-boss). Vitest hands the
 * SSR conditions to the worker's Node as --conditions flags; with `import` among them Node's own
 * require() picks ESM builds, and `pg` (CommonJS) then requires pg-pool's ESM namespace instead of its
 * class. Vite adds `import`/`require` per import by itself, so dropping it from the list changes
 * nothing else. (mergeConfig would concatenate the lists, not replace.)
 */
export function forCommonJsPg(config: ViteUserConfig): ViteUserConfig {
  return {
    ...config,
    ssr: {
      ...config.ssr,
      resolve: {
        ...config.ssr?.resolve,
        conditions: (config.ssr?.resolve?.conditions ?? []).filter((condition) => condition !== 'import'),
      },
    },
  };
}
