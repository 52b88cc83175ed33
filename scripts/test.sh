#!/usr/bin/env bash
# Set everything up and run the whole test suite (extra pytest arguments are passed on).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test

# Debian packages some tests need: PostgreSQL server binaries (tests start their own server) and Chromium with
# its driver for the browser tests (Playwright drives the system Chromium; no browser is downloaded).
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ "${#missing[@]}" -gt 0 ]; then
  sudo_cmd=()
  if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else sudo_cmd=(); fi
  fi
  if [ "$(id -u)" = "0" ] || [ "${#sudo_cmd[@]}" -gt 0 ]; then
    echo "==> installing from Debian's packages: ${missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "warning: ${missing[*]} not installed and cannot be installed here; their tests will skip (fail under CI)" >&2
  fi
fi

echo "==> running the test suite"
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests" >&2
  exit 1
fi
exit "$status"
