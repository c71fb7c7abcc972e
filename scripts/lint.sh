#!/usr/bin/env bash
# npm run lint: Biome must be silent. Warnings fail through --error-on-warnings; Biome has no such
# switch for infos (its recommended style rules report at info level), so a run that reports any
# info fails here too. A rule that does not fit is turned off in biome.jsonc with a reason.
set -uo pipefail
out=$(npx biome check --error-on-warnings --max-diagnostics=none "$@" 2>&1)
status=$?
printf '%s\n' "$out"
if [ "$status" -eq 0 ] && grep -qE '^Found [0-9]+ infos?\.' <<<"$out"; then
  echo "lint: Biome reported infos; fix them (npm run format fixes formatting) or turn the rule off in biome.jsonc with a reason" >&2
  exit 1
fi
exit "$status"
