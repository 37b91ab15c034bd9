#!/usr/bin/env bash
# Makes sure Debian's Chromium is here (browser downloads are not used): chromium-headless-shell for the Playwright
# tests and the budget's count, chromium for the benchmarks (e2e/chromium.ts).
set -euo pipefail
browsers=("${CHROMIUM_HEADLESS_SHELL_PATH:-/usr/bin/chromium-headless-shell}" "${CHROMIUM_PATH:-/usr/bin/chromium}")
all_there() { for browser in "${browsers[@]}"; do [ -x "$browser" ] || return 1; done; }
if all_there; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium is missing: installing Debian's chromium and chromium-headless-shell packages with apt-get..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  all_there && exit 0
fi
echo "Cannot run the browser tests: ${browsers[*]} are not all there and could not be installed" \
  "(needs root and apt-get on Debian; or set CHROMIUM_HEADLESS_SHELL_PATH and CHROMIUM_PATH to Chromium binaries)." >&2
exit 1
