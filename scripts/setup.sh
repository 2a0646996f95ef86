#!/usr/bin/env bash
# One command from a machine with only Node 20 + npm to a built workspace, then the main job.
# When the running Node is outside `engines.node` of package.json, installs a supported Node from the
# npm registry into ~/.local (PATCHBAY_NODE_PREFIX overrides), then the pnpm pinned in package.json,
# the dependencies, builds every package, and runs `pnpm eval`. Pass --no-run to stop after the build.
#
# Exit status: 0 done; 3 the main job ran and reported failed scenarios (counted in
# evals/results/summary.json, which `pnpm test` adds to its summary); 1 anything else failed.
set -euo pipefail
cd "$(dirname "$0")/.."

export TURBO_TELEMETRY_DISABLED=1 PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# pnpm reads only its own pnpm_config_* variables: without this it prints "Update available! … curl | sh"
# for a pnpm the project does not use (package.json pins the version).
export pnpm_config_update_notifier=false

log() { printf '\033[1m[setup %s]\033[0m %s\n' "$(date +%H:%M:%S)" "$*"; }
fail() {
  printf '\033[1m[setup %s]\033[0m error: %s\n' "$(date +%H:%M:%S)" "$*" >&2
  exit 1
}

# Runs a command that prints nothing for a long time (npm downloading a 30 MB Node), with a line
# every 15 s so it never looks hung. Its output is shown only when it fails.
quietly() {
  local what="$1"
  shift
  local output started next status
  output="$(mktemp)"
  started=$SECONDS
  next=15
  "$@" >"$output" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if [ $((SECONDS - started)) -ge "$next" ]; then
      log "  still $what ($((SECONDS - started)) s)"
      next=$((next + 15))
    fi
  done
  status=0
  wait "$pid" || status=$?
  if [ "$status" -ne 0 ]; then
    cat "$output" >&2
    rm -f "$output"
    fail "$what failed (exit $status); its output is above"
  fi
  rm -f "$output"
  log "  done in $((SECONDS - started)) s"
}

command -v node >/dev/null || fail "no node on PATH: install Node (any version with npm) first, then rerun"
command -v npm >/dev/null || fail "no npm on PATH: setup installs Node and pnpm with npm"

# npm reads machine-wide settings (CA bundle, mirror, proxy) from its global config, found from
# npm's own prefix: `--prefix` elsewhere, or a Node installed elsewhere, would silently drop them
# (SELF_SIGNED_CERT_IN_CHAIN behind a corporate proxy). Pin the file this machine's npm uses now.
npm_config_globalconfig="${npm_config_globalconfig:-$(npm config get globalconfig 2>/dev/null || true)}"
export npm_config_globalconfig
# pnpm never reads npm's global config: hand it the network settings found there.
if [ -f "$npm_config_globalconfig" ]; then
  while IFS='=' read -r key value; do
    key="$(echo "$key" | tr -d '[:space:]')"
    value="$(echo "$value" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')"
    case "$key" in
      registry | cafile | ca | strict-ssl | proxy | https-proxy | noproxy | no-proxy)
        variable="pnpm_config_$(echo "$key" | tr '-' '_')"
        if [ -z "${!variable:-}" ]; then export "$variable=$value"; fi
        ;;
    esac
  done <"$npm_config_globalconfig"
  log "npm global config $npm_config_globalconfig stays in effect for every install below"
fi

PREFIX="${PATCHBAY_NODE_PREFIX:-$HOME/.local}"
# What setup checks is what the shell sees after the README's `export PATH=...` line.
case ":$PATH:" in *":$PREFIX/bin:"*) ;; *) export PATH="$PREFIX/bin:$PATH" ;; esac
hash -r

RANGE="$(node scripts/node-engines.mjs || true)"
installed=()
if node scripts/node-engines.mjs >/dev/null 2>&1; then
  log "node $(node --version) at $(command -v node) satisfies $RANGE"
else
  SPEC="$(node scripts/node-engines.mjs --install-spec)"
  log "node $(node --version) at $(command -v node) is outside $RANGE: installing $SPEC from the npm registry into $PREFIX"
  mkdir -p "$PREFIX"
  quietly "installing $SPEC" npm install -g --prefix "$PREFIX" "$SPEC"
  hash -r
  node scripts/node-engines.mjs >/dev/null ||
    fail "installed $SPEC, but the node first on PATH is $(command -v node) $(node --version)"
  # npm under this Node looks for its global config inside the Node package: point it at the same file.
  node_package="$(dirname "$(dirname "$(readlink -f "$PREFIX/bin/node")")")"
  if [ -f "$npm_config_globalconfig" ] && [ ! -e "$node_package/etc/npmrc" ]; then
    mkdir -p "$node_package/etc"
    ln -s "$npm_config_globalconfig" "$node_package/etc/npmrc"
  fi
  installed+=("node $(node --version) -> $PREFIX/bin/node")
fi

PNPM_PIN="$(node -p 'require("./package.json").packageManager.split("@")[1]')"
if [ "$(pnpm --version 2>/dev/null || true)" = "$PNPM_PIN" ]; then
  log "pnpm $PNPM_PIN at $(command -v pnpm)"
else
  log "installing pnpm@$PNPM_PIN (the version package.json pins) into $PREFIX"
  quietly "installing pnpm@$PNPM_PIN" npm install -g --prefix "$PREFIX" "pnpm@$PNPM_PIN"
  hash -r
  [ "$(pnpm --version 2>/dev/null || true)" = "$PNPM_PIN" ] ||
    fail "installed pnpm@$PNPM_PIN, but the pnpm first on PATH is $(command -v pnpm || echo none)"
  installed+=("pnpm $PNPM_PIN -> $PREFIX/bin/pnpm")
fi

path_line="export PATH=\"$PREFIX/bin:\$PATH\""
if [ "${#installed[@]}" -gt 0 ]; then
  for item in "${installed[@]}"; do log "installed $item"; done
  log "in this shell, before the next README command (and in ~/.profile for new shells):"
  log "  $path_line"
fi

# Browser tests (the console, the eval matrix picture) drive Debian's chromium through playwright-core;
# no browser is downloaded from npm. Install the package when it is missing and this user may.
if [ -z "${PATCHBAY_CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
  if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; }; then
    as_root=()
    if [ "$(id -u)" != 0 ]; then as_root=(sudo -n); fi
    log "installing Debian's chromium for the browser tests (apt-get install chromium, as root$([ ${#as_root[@]} -gt 0 ] && echo ' through sudo -n'); PATCHBAY_CHROMIUM=<path> before setup skips it)"
    # Stale package lists on a fresh machine: refresh them once when the first try fails.
    quietly "installing chromium" "${as_root[@]}" sh -c 'export DEBIAN_FRONTEND=noninteractive
      apt-get install -y -q chromium || { apt-get update -q && apt-get install -y -q chromium; }'
  else
    log "warning: no chromium and no way to install it here: the browser tests will fail (PATCHBAY_CHROMIUM=<path> names one)"
  fi
fi

started=$SECONDS
log "installing dependencies (pnpm install --frozen-lockfile)"
pnpm install --frozen-lockfile --reporter=append-only
log "  dependencies installed in $((SECONDS - started)) s"

started=$SECONDS
log "building every package (turbo run build; a few minutes on two cores)"
pnpm build --output-logs=new-only
log "  built in $((SECONDS - started)) s"

if [ "${1:-}" != "--no-run" ]; then
  started=$SECONDS
  log "running the main job: pnpm eval"
  if ! pnpm eval; then
    if [ -f evals/results/summary.json ]; then
      log "the main job reported failures (evals/results/summary.json); pnpm test counts them"
      exit 3
    fi
    fail "pnpm eval failed before writing evals/results/summary.json"
  fi
  log "  main job done in $((SECONDS - started)) s"
fi
if [ "${#installed[@]}" -gt 0 ]; then log "reminder: $path_line"; fi
log "done"
