#!/bin/sh
# Container entrypoint. Inside a container the daemon must listen on a non-loopback address for
# the published port to reach it, so the image refuses to start without an auth secret from a
# file (a Docker/compose secret): never an open hub, never a secret in an environment variable.
# A ZCode CLI path that names nothing (no install mounted) falls back to the simulator when the
# backend is `auto`, instead of a daemon that exits 1 and a container that restarts forever.
set -eu

backend="${ZCODE_HUB_BACKEND:-auto}"
cli="${ZCODE_HUB_ZCODE_CLI:-}"
if [ "$backend" = "auto" ] && [ -n "$cli" ] && [ ! -f "$cli" ]; then
  echo "zcode-hub: no ZCode CLI at $cli; starting on the simulator." >&2
  echo "zcode-hub: mount a ZCode install at /opt/zcode (ZCODE_INSTALL_DIR in compose) to run the real agent." >&2
  unset ZCODE_HUB_ZCODE_CLI
fi

host="${ZCODE_HUB_HOST:-127.0.0.1}"
case "$host" in
  127.*|localhost|::1|"[::1]") loopback=1 ;;
  *) loopback=0 ;;
esac

if [ "$loopback" = "0" ]; then
  secret="${ZCODE_HUB_ADMIN_TOKEN_FILE:-}"
  if [ -z "$secret" ] || [ ! -r "$secret" ] || [ ! -s "$secret" ]; then
    echo "zcode-hub: refusing to listen on $host without an auth secret." >&2
    echo "zcode-hub: mount one (e.g. a compose secret) and set ZCODE_HUB_ADMIN_TOKEN_FILE=/run/secrets/zcode_hub_admin_token" >&2
    exit 64
  fi
fi

exec "$@"
