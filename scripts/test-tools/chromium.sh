#!/usr/bin/env bash
# Chromium is the real browser the docs-page test (tests/e2e/test_docs_browser.py) renders
# /docs in, headless and with the network blocked, driven by Playwright (test extras) with
# this executable. Debian's package; skipped when present.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
# apt-get waits for the dpkg lock rather than failing when another install holds it.
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq \
    && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium \
    || echo "setup: chromium not installed; the docs browser test will fail"
