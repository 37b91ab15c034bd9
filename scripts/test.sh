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
step typecheck npx tsc --noEmit
step lint npx biome check .
# The boundaries of src/: no import cycle, infrastructure that knows no feature, frozen migrations, shared code that
# imports neither side (.dependency-cruiser.cjs, docs/decisions/0057-boundaries-that-hold.md).
step boundaries npm run --silent lint:boundaries
step build npm run build
step budget node --import tsx scripts/check-budget.ts
step vitest npx vitest run
step e2e npx playwright test

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED steps: ${failed[*]}"
  exit 1
fi
echo "npm test: every step passed"
