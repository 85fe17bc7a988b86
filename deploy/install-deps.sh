#!/usr/bin/env bash
# Installs every Debian 12 package ratingd's build and tests need. Idempotent: packages
# already present are left alone, and apt's lists are refreshed only when something is
# missing. Run as root (or with sudo available).
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # tests: the independent reference implementation (tests/reference/)
  python3
  clang clang-format libclang-rt-14-dev
  # libraries of ratings/ and its tests
  libabsl-dev libeigen3-dev
  libprotobuf-dev protobuf-compiler
  # fast JSON reading (battles files)
  libsimdjson-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  # exact maximal lotteries and Kemeny: linear programs (COIN-OR Clp)
  coinor-libclp-dev
  # the daemon: Kafka client, metrics, HTTP
  librdkafka-dev prometheus-cpp-dev libcivetweb-dev
  # integration tests: a real Kafka broker (Java 17 + Maven), kcat, Prometheus + promtool
  openjdk-17-jre-headless maven kcat prometheus curl
  # deploy tests: systemd-analyze verify/security on deploy/systemd/ratingd.service
  systemd
  # the page's browser test: Debian's Chromium, driven by Playwright (PyPI) from a venv
  chromium python3-venv
  # the Python package (python/): its extension module needs Python's headers
  python3-dev
  # the HTTP benchmarks' load generator (tests/bench/http_hammer_bench.py)
  wrk
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
