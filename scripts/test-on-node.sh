#!/usr/bin/env bash
# Runs the unit and integration suites (vitest; not lint, typecheck or the browser suites) on
# another Node major: `npm run test:node -- 24 [vitest args…]`. The daemon runs on Node 20 and
# must also run on 22 and 24. The binary is Node's official build as published on the npm
# registry (node-<os>-<arch>@<major>), cached under node_modules/.cache/node-<major>/; the
# tests' child processes (daemon, simulator, bridge) run on it too.
set -euo pipefail
cd "$(dirname "$0")/.."
major="${1:?usage: npm run test:node -- <major> [vitest args…]}"
shift
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "test-on-node: no Node build for $(uname -m) on the npm registry" >&2; exit 2 ;;
esac
pkg="node-$(uname -s | tr '[:upper:]' '[:lower:]')-$arch"
dir="node_modules/.cache/node-$major"
if [ ! -x "$dir/node_modules/$pkg/bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock "$pkg@$major" >/dev/null
fi
bin="$(cd "$dir/node_modules/$pkg/bin" && pwd)"
echo "test-on-node: $("$bin/node" --version)" >&2
PATH="$bin:$PATH" exec "$bin/node" node_modules/vitest/vitest.mjs run "$@"
