#!/usr/bin/env bash
# Scaffolds packages/<dir> as @patchbay/<dir> with the house package shape. Usage: scripts/new-package.sh <dir> "<description>"
set -euo pipefail
dir="$1"; description="$2"; root="$(cd "$(dirname "$0")/.." && pwd)"; pkg="$root/packages/$dir"
mkdir -p "$pkg/src"
# Every package repeats the root's supported Node range (tests/src/engines.test.ts checks it).
engines="$(node -p 'require(process.argv[1]).engines.node' "$root/package.json")"
cat > "$pkg/package.json" <<JSON
{
  "name": "@patchbay/$dir",
  "version": "0.0.0",
  "description": "$description",
  "license": "MIT",
  "type": "module",
  "sideEffects": false,
  "exports": {
    ".": {
      "@patchbay/source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "import": "./dist/index.js",
      "default": "./dist/index.js"
    },
    "./package.json": "./package.json"
  },
  "types": "./dist/index.d.ts",
  "files": ["dist", "README.md", "CHANGELOG.md"],
  "engines": { "node": "$engines" },
  "publishConfig": { "access": "public" },
  "repository": { "type": "git", "url": "https://github.com/patchbay-dev/patchbay", "directory": "packages/$dir" },
  "scripts": {
    "build": "tsup",
    "typecheck": "tsc -p tsconfig.json",
    "test": "vitest run --reporter=default --reporter=json --outputFile=.vitest-result.json"
  },
  "dependencies": {},
  "devDependencies": {}
}
JSON
cat > "$pkg/tsconfig.json" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "include": ["src", "test", "*.config.ts"]
}
JSON
cat > "$pkg/tsup.config.ts" <<'TS'
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
TS
cat > "$pkg/vitest.config.ts" <<'TS'
export { default } from '../../vitest.shared.ts';
TS
echo "created $pkg"
