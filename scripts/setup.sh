#!/usr/bin/env bash
# One command from a machine with only Node 20 + npm to a built workspace, then the main job.
# Installs Node >= 22 from the npm registry when the running Node is older, the pnpm pinned in
# package.json, the dependencies, builds every package, and runs `pnpm eval`.
# Pass --no-run to stop after the build.
set -euo pipefail
cd "$(dirname "$0")/.."

export TURBO_TELEMETRY_DISABLED=1 PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# Where global installs go: a prefix that comes before the system Node on PATH.
pick_prefix() {
  if [ -w /usr/local/bin ] && [ -w /usr/local/lib ]; then echo /usr/local; else echo "$HOME/.local"; fi
}
PREFIX="$(pick_prefix)"
case ":$PATH:" in *":$PREFIX/bin:"*) ;; *) export PATH="$PREFIX/bin:$PATH" ;; esac
hash -r

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  log "Node $(node --version 2>/dev/null || echo none) is older than 22: installing node@24 from the npm registry into $PREFIX"
  npm install -g --prefix "$PREFIX" --allow-scripts=node node@24 >/dev/null 2>&1 \
    || npm install -g --prefix "$PREFIX" node@24 >/dev/null
  hash -r
  if [ "$(node_major)" -lt 22 ]; then
    echo "setup: could not put Node >= 22 first on PATH (got $(node --version)); add $PREFIX/bin to PATH" >&2
    exit 1
  fi
fi
log "node $(node --version)"

PNPM_PIN="$(node -p 'require("./package.json").packageManager.split("@")[1]')"
if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_PIN" ]; then
  log "installing pnpm@$PNPM_PIN into $PREFIX"
  npm install -g --prefix "$PREFIX" --allow-scripts=pnpm "pnpm@$PNPM_PIN" >/dev/null 2>&1 \
    || npm install -g --prefix "$PREFIX" "pnpm@$PNPM_PIN" >/dev/null
  hash -r
fi
log "pnpm $(pnpm --version)"

log "installing dependencies"
pnpm install --frozen-lockfile --reporter=append-only 2>&1 | tail -n 5

log "building every package"
pnpm build --output-logs=errors-only

if [ "${1:-}" != "--no-run" ]; then
  log "running the main job: pnpm eval"
  pnpm eval
fi
