#!/usr/bin/env bash
# The browser tests use Debian's Chromium (never a browser downloaded by a test tool).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ]; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The browser tests need Debian's chromium: run 'sudo apt-get install -y chromium'" >&2
  exit 1
fi
