import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The browser app: bundled at build time into dist/app, served by the console's own server.
// No CDN, no runtime fetch of anything but the console's API, so it works offline.
export default defineConfig({
  root: fileURLToPath(new URL('./src/app', import.meta.url)),
  base: './',
  // Preact through the automatic JSX runtime, without a framework plugin: one dependency fewer.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/app', import.meta.url)),
    emptyOutDir: true,
    // Modern browsers only: the console is opened on the operator's own machine or phone.
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
