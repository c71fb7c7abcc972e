#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a downloaded browser), and the Chinese
# screenshots need a CJK font (without one Chromium draws boxes). Installs what is missing when
# we may (root with apt-get); otherwise says exactly what to run.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# fc-list ships with fontconfig, a dependency of chromium; no output = no font covers Chinese.
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then missing+=(fonts-noto-cjk); fi
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: installing ${missing[*]} for the browser tests" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
echo "ensure-chromium: missing ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
exit 1
