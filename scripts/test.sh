#!/usr/bin/env bash
# `npm test`: every check of the project, in order. Each step runs even if an earlier one failed, so one
# run shows every problem; the exit status is non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
step() {
  local name=$1
  shift
  printf '\n=== %s: %s\n' "$name" "$*"
  if "$@"; then printf '=== %s: ok\n' "$name"; else
    printf '=== %s: FAILED\n' "$name"
    failed+=("$name")
  fi
}

# `npm ci` (what CI systems and deploy scripts run) refuses a lock file out of step with package.json.
step lockfile npm ci --dry-run --no-audit --no-fund
step chromium bash scripts/ensure-chromium.sh
step postgres bash scripts/ensure-postgres.sh
# Typecheck, lint, the boundaries and the build read the sources and write nothing the others read (the build writes dist/ and
# dist-server/, which tsc, biome and dependency-cruiser leave out): side by side, each one's output kept apart and printed whole, in
# this order, once all have ended.
side_by_side() {
  local dir pids=() names=() i
  dir=$(mktemp -d)
  while [ $# -gt 0 ]; do
    local name=$1 command=$2
    shift 2
    names+=("$name")
    (step "$name" bash -c "$command" > "$dir/$name.log" 2>&1; [ "$(tail -n 1 "$dir/$name.log")" = "=== $name: ok" ]) &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${names[$i]}")
    cat "$dir/${names[$i]}.log"
  done
  rm -rf "$dir"
}
# The boundaries of src/ are one of them: no import cycle, infrastructure that knows no feature, frozen migrations,
# shared code that imports neither side (.dependency-cruiser.cjs, docs/decisions/0057-boundaries-that-hold.md).
side_by_side typecheck 'npx tsc --noEmit' lint 'npx biome check .' boundaries 'npm run --silent lint:boundaries' \
  build 'npm run build'
step budget node --import tsx scripts/check-budget.ts
step vitest npx vitest run
step e2e npx playwright test

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED steps: ${failed[*]}"
  exit 1
fi
echo "npm test: every step passed"
