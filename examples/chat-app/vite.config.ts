import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page: bundled once into dist/app and served by src/chat-server.ts; nothing is fetched from a CDN.
export default defineConfig({
  root: fileURLToPath(new URL('./src/app', import.meta.url)),
  base: './',
  // React through the automatic JSX runtime, without a framework plugin: one dependency fewer.
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/app', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      onwarn(warning, warn) {
        // swr (under @ai-sdk/react) marks its modules 'use client' for React Server Components; this
        // page has no server components, so dropping the directive changes nothing.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
