import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node22',
  dts: true,
  sourcemap: true,
  clean: true,
  // Keep `node:` specifiers: some built-ins (node:sqlite, node:test) exist only under that name.
  removeNodeProtocol: false,
});
