import { defineConfig } from 'tsup';

export default defineConfig({
  // The library, the command, and the files promptfoo loads by path (provider, assertion, progress hook).
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli.ts',
    'promptfoo/provider': 'src/promptfoo/provider.mjs',
    'promptfoo/assertion': 'src/promptfoo/assertion.mjs',
    'promptfoo/progress': 'src/promptfoo/progress.mjs',
    internal: 'src/internal.mjs',
  },
  format: ['esm'],
  target: 'node22',
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  removeNodeProtocol: false,
});
