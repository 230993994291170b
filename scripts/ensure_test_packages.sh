#!/usr/bin/env bash
# Make sure the Debian packages the test suite drives are installed: Chromium, for the browser
# tests (every test using the fixtures of tests/browser.py), and PgBouncer, for the test of the
# web processes behind a transaction pooler (tests/hardening/test_pooler.py).
#
# Does nothing for a program already installed; otherwise installs the distribution's package
# with apt-get (root needed). It never runs `playwright install`: the tests drive the system
# Chromium through Python Playwright. Called by the Makefile's test target before pytest, so
# that CI (CI=true, where a missing program fails its tests) has them.
#
# When it cannot install (not root, no apt-get): with CI=true it fails; otherwise it warns and
# succeeds, and the tests needing the program are skipped with the reason.
set -euo pipefail

# program (as found on the PATH or in /usr/sbin) = Debian package
PACKAGES=(chromium pgbouncer)

cannot_install() {
    echo "ensure_test_packages: $1" >&2
    case "${CI:-}" in
        1 | true | TRUE | True | yes) exit 1 ;;
        *) echo "ensure_test_packages: the tests needing them will be skipped" >&2; exit 0 ;;
    esac
}

missing=()
for package in "${PACKAGES[@]}"; do
    if ! PATH="$PATH:/usr/sbin:/sbin" command -v "$package" >/dev/null 2>&1; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    cannot_install "missing: ${missing[*]}; apt-get is not available: install them yourself"
fi
if [ "$(id -u)" -ne 0 ]; then
    cannot_install "missing: ${missing[*]}; as root run: apt-get install -y ${missing[*]}"
fi
echo "ensure_test_packages: installing ${missing[*]} with apt-get"
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; }; then
    cannot_install "apt-get could not install ${missing[*]} (offline, or no such package?)"
fi
for package in "${missing[@]}"; do
    PATH="$PATH:/usr/sbin:/sbin" command -v "$package" >/dev/null
done
