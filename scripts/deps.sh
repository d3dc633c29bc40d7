#!/usr/bin/env bash
# Installs the Debian packages smithycurl needs to build and test, when missing.
# Runs apt-get as root, or through sudo; prints the command otherwise.
set -euo pipefail
# python3-*: the Python package's tests (pytest, an offline pip install into a
# venv) and mypy for the generated typed modules.
packages=(libcurl4-openssl-dev pkg-config gcc make valgrind python3-pytest python3-venv python3-pip mypy)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The AWS end-to-end tests run emulators from npm; any Node.js with npm will do.
command -v npm >/dev/null || missing+=(nodejs npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "deps: please run as root: apt-get install -y ${missing[*]}" >&2; exit 1
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
