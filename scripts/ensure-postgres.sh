#!/usr/bin/env bash
# Starts the local PostgreSQL cluster when it is installed but stopped, for the PostgreSQL test suites.
# Whether a missing PostgreSQL fails the run or only skips (loudly) is decided by the suites themselves.
set -uo pipefail
url=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
ready() { command -v pg_isready >/dev/null && pg_isready -q -d "$url"; }
ready && exit 0
if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
  echo "PostgreSQL is not answering: starting the local cluster..."
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>&1 || true
  done
  for _ in $(seq 1 30); do ready && exit 0; sleep 1; done
fi
echo "PostgreSQL at $url is not reachable; the PostgreSQL suites will say so." >&2
exit 0
