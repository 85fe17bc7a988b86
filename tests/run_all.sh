#!/usr/bin/env bash
# The test command: installs what is needed, builds, and runs every test.
#   1. Debian packages (deploy/install-deps.sh)
#   2. formatting (clang-format, Google style, .clang-format)
#   3. release build with -Werror, all tests (ctest: unit, cli, kafka, prometheus, deploy;
#      two at a time, the integration tests alone)
#   3b. the Python package: `pip install ./python` into a virtual environment, its pytest
#      suite against the release build's ratingctl, then against a live ratingd on a broker
#   4. AddressSanitizer + UndefinedBehaviorSanitizer build (clang, with the libFuzzer
#      targets), unit and cli tests
#   4b. ThreadSanitizer build (clang), every unit test (ratings_test, voting_test, daemon_test)
#   5. the libFuzzer targets of step 4, each run for RATINGD_FUZZ_SECONDS (default 20)
#   6. benchmarks smoke run (does it run; figures are recorded by hand in docs/BENCHMARKS.md)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds=${RATINGD_FUZZ_SECONDS:-20}
# Each stage's wall time is printed when the next begins, and all of them at the end.
started=$SECONDS
stage_start=$SECONDS
stage_name=""
stage_times=""
stage_done() {
  [[ -n $stage_name ]] && stage_times+="$(printf '%5ds  %s' $((SECONDS - stage_start)) "$stage_name")"$'\n'
  stage_start=$SECONDS
}
step() {
  [[ -n $stage_name ]] && printf '(%s: %ds)\n' "$stage_name" $((SECONDS - stage_start))
  stage_done
  stage_name=$*
  printf '\n==== %s ====\n' "$*"
}

step "dependencies"
bash deploy/install-deps.sh

step "formatting"
mapfile -t sources < <(git ls-files '*.cc' '*.h' 2>/dev/null || find proto ratings daemon tests -name '*.cc' -o -name '*.h')
clang-format --dry-run --Werror "${sources[@]}"
echo "clang-format: ${#sources[@]} files clean"

step "release build and tests (-Werror)"
cmake --workflow --preset ci

step "Python package (pip install ./python, pytest)"
# Debian's Python installs into a virtual environment only (docs/PYTHON.md). pip fetches
# the build tools and pandas from PyPI; python/build/ keeps the compiled core.
venv=build/python-venv
[[ -x $venv/bin/pip ]] || python3 -m venv "$venv"
"$venv/bin/pip" install -q pytest matplotlib pyarrow ./python
RATINGCTL=build/ci/bin/ratingctl "$venv/bin/pytest" -q python/tests
# OnlinePool and Client against a live ratingd (python/tests/test_live.py), on a broker of
# its own, stopped whatever the outcome.
live=$(mktemp -d)
KAFKA_DIR=$live bash deploy/kafka/broker.sh start wait
live_status=0
RATINGD_LIVE=1 KAFKA_DIR=$live RATINGD=build/ci/bin/ratingd RATINGCTL=build/ci/bin/ratingctl \
  "$venv/bin/pytest" -q python/tests/test_live.py || live_status=$?
KAFKA_DIR=$live bash deploy/kafka/broker.sh stop
rm -rf "$live"
[[ $live_status -eq 0 ]] || exit "$live_status"

step "AddressSanitizer + UndefinedBehaviorSanitizer"
cmake --workflow --preset ci-asan

step "ThreadSanitizer: every unit test"
# librdkafka (not instrumented) crashes TSan's allocator in its own threads, so the Kafka
# binary cannot run under TSan here; the daemon's threaded parts are unit-tested instead
# (daemon_test links librdkafka but creates no handle). Wall time: docs/RELIABILITY.md.
cmake --workflow --preset ci-tsan

step "fuzzers (${fuzz_seconds}s each)"
# Built by the ASan stage, whose flags instrument every library for coverage
# (-fsanitize=fuzzer-no-link); the fuzz preset (-O2) is for the long runs.
for fuzzer in build/ci-asan/tests/fuzz/*_fuzz; do
  name=$(basename "$fuzzer" _fuzz)
  corpus=$(mktemp -d)
  log=$(mktemp)
  cp tests/fuzz/corpus/"$name"/* "$corpus"/
  # libFuzzer exits non-zero on a crash, leak or sanitizer report.
  if ! "$fuzzer" -max_total_time="$fuzz_seconds" -print_final_stats=1 -artifact_prefix="$corpus/" \
      "$corpus" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzzer $name failed"
    exit 1
  fi
  echo "$name: $(grep -m1 '^stat::number_of_executed_units' "$log" | awk '{print $2}') inputs, no crash"
  rm -rf "$corpus" "$log"
done

step "benchmarks smoke run"
build/ci/tests/bench/models_bench --benchmark_min_time=0.001 --benchmark_filter='BM_(Elo|Sco)Update/agents:1000/k:2' >/dev/null
echo "models_bench runs"
build/ci/tests/bench/record_path_bench --benchmark_min_time=0.001 --benchmark_filter='BM_RecordPath/0' >/dev/null
echo "record_path_bench runs"

stage_done
printf '\n==== all tests passed in %ds ====\n%s' $((SECONDS - started)) "$stage_times"
