import { defineConfig } from 'tsup';

// The library, the command, and the files promptfoo loads by path (provider, assertion, progress hook).
const entry = {
  index: 'src/index.ts',
  cli: 'src/cli.ts',
  'promptfoo/provider': 'src/promptfoo/provider.ts',
  'promptfoo/assertion': 'src/promptfoo/assertion.ts',
  'promptfoo/progress': 'src/promptfoo/progress.ts',
  internal: 'src/internal.ts',
};

export default defineConfig({
  entry,
  format: ['esm'],
  target: 'node22',
  // Declarations for every entry a package.json export names (the command has none to give).
  dts: {
    entry: {
      index: entry.index,
      'promptfoo/provider': entry['promptfoo/provider'],
      'promptfoo/assertion': entry['promptfoo/assertion'],
      'promptfoo/progress': entry['promptfoo/progress'],
      internal: entry.internal,
    },
  },
  sourcemap: true,
  clean: true,
  // Keep `node:` specifiers: some built-ins (node:sqlite, node:test) exist only under that name.
  removeNodeProtocol: false,
});
