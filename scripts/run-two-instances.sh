#!/usr/bin/env bash
# Starts two Piaffe servers on ports 3001 and 3002 against one PostgreSQL database, to watch a cart change
# on one server reach a cart page served by the other (see docs/SCALING.md). Stop both with Ctrl-C.
#
#   scripts/run-two-instances.sh [postgres://user@host:5432/db]
#
# The URL defaults to $DATABASE_URL, then to postgres://postgres@127.0.0.1:5432/postgres. Both servers get
# the same AUTH_SECRET ($AUTH_SECRET, or one generated for this run). Without PUBLIC_URL each server is its
# own origin (http://localhost:3001, http://localhost:3002); behind nginx, set PUBLIC_URL to nginx's URL
# and TRUST_PROXY=1.
set -euo pipefail
cd "$(dirname "$0")/.."

url=${1:-${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}}
case $url in
  postgres://* | postgresql://*) ;;
  *) echo "Give a postgres:// URL (got: $url)" >&2; exit 2 ;;
esac
secret=${AUTH_SECRET:-$(node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))")}

if [ ! -f dist/index.html ]; then
  echo "Building the client once (npm run build)..."
  npm run build --silent
fi

pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait
}
trap stop INT TERM EXIT

for port in 3001 3002; do
  PORT=$port \
    DATABASE_URL=$url \
    AUTH_SECRET=$secret \
    PUBLIC_URL=${PUBLIC_URL:-http://localhost:$port} \
    TRUST_PROXY=${TRUST_PROXY:-0} \
    node --import tsx src/server/main.ts > >(sed -u "s/^/[$port] /") 2>&1 &
  pids+=($!)
done

cat <<TEXT

Two servers are starting on one database:
  http://localhost:3001   http://localhost:3002
Sign up on 3001, open the cart on 3002 (the session cookie is shared: same host), then add an item
from the home page of 3001: the cart page on 3002 shows it without a reload. Ctrl-C stops both.

TEXT
wait
