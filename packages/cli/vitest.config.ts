import { defineConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// As in packages/store/vitest.config.ts: without `import` among the worker's --conditions, Node's
// require() inside `pg` (loaded by the store for a postgres:// URL) gets CommonJS, not ESM builds.
export default defineConfig({
  ...shared,
  ssr: {
    ...shared.ssr,
    resolve: {
      ...shared.ssr?.resolve,
      conditions: (shared.ssr?.resolve?.conditions ?? []).filter((condition) => condition !== 'import'),
    },
  },
});
