import { defineConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Vitest hands the SSR conditions to the worker's Node as --conditions flags; with `import` among
// them Node's own require() picks ESM builds, and `pg` (CommonJS) then requires pg-pool's ESM
// namespace instead of its class. Vite adds `import`/`require` per import by itself, so dropping
// it from the list changes nothing else. (mergeConfig would concatenate the lists, not replace.)
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
