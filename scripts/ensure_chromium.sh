#!/usr/bin/env bash
# Make sure Debian's Chromium is installed, for the browser tests (every test using the fixtures
# of tests/browser.py: the pages', the console's, the table links' and the score pad's, its
# modules' tests included).
#
# Does nothing when `chromium` is already on the PATH; otherwise installs the distribution's
# package with apt-get (root needed). It never runs `playwright install`: the tests drive the
# system Chromium through Python Playwright. Called by the Makefile's test target before pytest,
# so that CI (CI=true, where a missing Chromium fails the browser tests) has it.
#
# When it cannot install (not root, no apt-get): with CI=true it fails; otherwise it warns and
# succeeds, and the browser tests are skipped with the reason.
set -euo pipefail

cannot_install() {
    echo "ensure_chromium: $1" >&2
    case "${CI:-}" in
        1 | true | TRUE | True | yes) exit 1 ;;
        *) echo "ensure_chromium: the browser test will be skipped" >&2; exit 0 ;;
    esac
}

if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    cannot_install "chromium is missing and apt-get is not available; install Chromium yourself"
fi
if [ "$(id -u)" -ne 0 ]; then
    cannot_install "chromium is missing; as root run: apt-get install -y chromium"
fi
echo "ensure_chromium: installing chromium with apt-get"
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }; then
    cannot_install "apt-get could not install chromium (offline, or no such package?)"
fi
command -v chromium >/dev/null
