import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/postgres.ts'],
  format: ['esm'],
  target: 'node22',
  dts: true,
  sourcemap: true,
  clean: true,
  // `node:sqlite` exists only under its prefixed name.
  removeNodeProtocol: false,
});
