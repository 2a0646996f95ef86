import { defineConfig } from 'tsup';

export default defineConfig({
  // Subpaths keep optional peers out of the root entry: `tokens` loads gpt-tokenizer, `ai-sdk` loads ai.
  entry: ['src/index.ts', 'src/tokens.ts', 'src/ai-sdk.ts'],
  format: ['esm'],
  target: 'node22',
  dts: true,
  sourcemap: true,
  clean: true,
  // Keep `node:` specifiers: some built-ins (node:sqlite, node:test) exist only under that name.
  removeNodeProtocol: false,
});
