#!/usr/bin/env bash
# Installs what smithycurl needs to build and test, when missing: the one
# list of the project's dependencies (`make demo` and `make test` run it;
# so does CI, through `make test`). Debian packages through apt-get (as
# root, or with sudo; otherwise it prints the command and fails), then the
# AWS emulators the end-to-end tests use from the npm registry
# (scripts/emulators.sh install; needs the registry on a first run).
set -euo pipefail
cd "$(dirname "$0")/.."
# libcurl and a C toolchain: the library and the C tests; valgrind: the C
# tests' memcheck runs; python3-*: the Python package's tests (pytest, an
# offline pip install into a venv), mypy for the generated typed modules,
# botocore for the differential tests; libssl-dev and zlib1g-dev: the
# hand-written libcurl S3 client of make bench-aws (bench/c/s3.c: SigV4 with
# OpenSSL's HMAC, CRC32 with zlib's); boto3 (with s3transfer): the Python
# peers of make bench-aws and bench-transfer; aiohttp: the peer of make
# bench-python-async; linux-perf: the per-stage profile of make bench-stages.
packages=(libcurl4-openssl-dev pkg-config gcc make valgrind python3-pytest python3-venv python3-pip python3-botocore mypy
  libssl-dev zlib1g-dev python3-boto3 python3-aiohttp linux-perf)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The emulators run on any Node.js with npm.
command -v npm >/dev/null || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "deps: please run as root: apt-get update && apt-get install -y ${missing[*]}" >&2; exit 1
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
[ "${1:-}" = "--no-emulators" ] || scripts/emulators.sh install >/dev/null
