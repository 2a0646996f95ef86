import { defineConfig } from 'tsup';

// The server only; the browser app is bundled by `vite build` into dist/app afterwards (tsup's
// `clean` would delete it if the order were reversed).
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node22',
  dts: true,
  sourcemap: true,
  clean: true,
  removeNodeProtocol: false,
});
