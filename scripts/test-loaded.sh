#!/usr/bin/env bash
# The "loaded" check (docs/TESTING.md): the suites must pass on a machine that is busy, not only
# on a quiet one. Keeps every core busy with a CPU hog (one `node -e 'for(;;){}'` per core) while
# it runs the browser suites BROWSER_RUNS times and the unit/integration suites UNIT_RUNS times in
# a row, then prints one line per run and exits non-zero when any run failed. Logs of every run
# stay in LOG_DIR. Not part of `npm test`: it takes about an hour on 2 cores.
#   npm run test:loaded                        # 5 browser runs, 3 unit runs, 2 hogs
#   BROWSER_RUNS=1 UNIT_RUNS=1 npm run test:loaded
#   HOGS=1 npm run test:loaded -- test/e2e/phone.test.ts   # only that browser file (no unit runs)
# An argument naming an existing file or folder goes to the suite it belongs to (test/e2e/… to the
# browser runs, anything else to the unit runs), and a suite given none of them is not run: a
# vitest config that includes no given file exits 1 ("No test files found"). Other arguments
# (-t NAME, --bail=1, …) go to every run.
set -uo pipefail
cd "$(dirname "$0")/.."
browser_runs="${BROWSER_RUNS:-5}"
unit_runs="${UNIT_RUNS:-3}"
hogs="${HOGS:-$(nproc)}"
log_dir="${LOG_DIR:-$(mktemp -d -t zcode-hub-loaded.XXXXXX)}"
mkdir -p "$log_dir"

browser_files=()
unit_files=()
common=()
for arg in "$@"; do
  if [ -e "$arg" ]; then
    case "$arg" in
      test/e2e | test/e2e/* | */test/e2e | */test/e2e/*) browser_files+=("$arg") ;;
      *) unit_files+=("$arg") ;;
    esac
  else
    common+=("$arg")
  fi
done
if [ $((${#browser_files[@]} + ${#unit_files[@]})) -gt 0 ]; then
  [ ${#browser_files[@]} -gt 0 ] || browser_runs=0
  [ ${#unit_files[@]} -gt 0 ] || unit_runs=0
fi

pids=()
stop_hogs() { [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null; }
trap stop_hogs EXIT INT TERM
for ((i = 0; i < hogs; i++)); do
  node -e 'for(;;){}' &
  pids+=($!)
done
echo "test-loaded: $hogs CPU hog(s) running; logs in $log_dir" >&2

[ "$browser_runs" -eq 0 ] || bash scripts/ensure-chromium.sh || exit 1
results=()
failed=0
run() { # label, log file, command…
  local label="$1" log="$2"
  shift 2
  local start=$SECONDS
  if "$@" >"$log" 2>&1; then results+=("ok    $label ($((SECONDS - start)) s)")
  else
    failed=1
    results+=("FAIL  $label ($((SECONDS - start)) s): $log")
    grep -E '(FAIL|✗|×) ' "$log" | head -20 | sed 's/^/        /' >&2 || true
  fi
  echo "test-loaded: ${results[-1]}" >&2
}
for ((i = 1; i <= browser_runs; i++)); do
  run "browser suites, run $i of $browser_runs" "$log_dir/browser-$i.log" npx vitest run --config vitest.e2e.config.ts "${common[@]}" "${browser_files[@]}"
done
for ((i = 1; i <= unit_runs; i++)); do
  run "unit/integration suites, run $i of $unit_runs" "$log_dir/unit-$i.log" npx vitest run "${common[@]}" "${unit_files[@]}"
done
printf '%s\n' "${results[@]}"
exit "$failed"
